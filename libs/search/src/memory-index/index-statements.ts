import { getFloat16 } from '@petamoriken/float16';
import type { ItemKind } from '../ranking/candidate';
import type { StatementRunner } from '../plan/search-source';
import { ITEM_TABLES } from '../plan/search-plan';
import { rowsById } from '../plan/search-scope';
import type {
  AccessDoc,
  ConversationDoc,
  FactDoc,
  MessageDoc,
  SummaryDoc,
  TenantSnapshot,
  VectorDoc,
} from './index-docs';

/**
 * What the index reads from the store: a whole tenant, or the items an event names. Each
 * statement runs in the tenant's transaction (row-level security applies) and reads only
 * columns search ranks by — never content, which is read per search for the returned items.
 * Times are microseconds since the epoch, lexemes the stored tsvector's (joined by spaces).
 */

/**
 * Which items to read: every item of these conversations (`within`, a page of a load: with their
 * vectors and access counts, and with `unattached` the facts of no conversation too); or these
 * ids per kind and the vectors of these refs (a change: no access counts, which change by their
 * own events).
 */
export type ItemSelection =
  | { readonly within: readonly string[]; readonly unattached?: boolean }
  | {
      readonly within?: undefined;
      readonly message?: readonly string[];
      readonly summary?: readonly string[];
      readonly fact?: readonly string[];
      readonly conversation?: readonly string[];
      readonly vectors?: ReadonlyArray<{ readonly kind: ItemKind; readonly id: string }>;
    };

const us = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::float8`;

/** Whether the tenant exists: an index is made only for a known tenant. */
async function tenantExists(run: StatementRunner, tenantId: string): Promise<boolean> {
  const rows = await run<{ known: boolean }>({
    text: `SELECT EXISTS (SELECT 1 FROM tenants WHERE tenant_id = $1) AS known`,
    values: [tenantId],
  });
  return rows[0]?.known === true;
}

/** The FROM of the statement that reads the items of `kind` a selection names, and its values. */
function itemsOf(alias: string, kind: ItemKind, tenantId: string, selection: ItemSelection) {
  const table = ITEM_TABLES[kind].table;
  if (selection.within)
    return kind === 'fact'
      ? {
          from: `${table} ${alias} WHERE ${alias}.tenant_id = $1 AND (${alias}.conversation_id = ANY($2::bigint[]) OR ($3 AND ${alias}.conversation_id IS NULL))`,
          values: [tenantId, selection.within, selection.unattached === true],
        }
      : {
          from: `${table} ${alias} WHERE ${alias}.tenant_id = $1 AND ${alias}.conversation_id = ANY($2::bigint[])`,
          values: [tenantId, selection.within],
        };
  return { from: rowsById(table, alias, '$2', '$1'), values: [tenantId, selection[kind] ?? []] };
}

/** Whether a selection names any item of `kind`. */
function wants(selection: ItemSelection, kind: ItemKind): boolean {
  if (selection.within)
    return selection.within.length > 0 || (kind === 'fact' && selection.unattached === true);
  return (selection[kind]?.length ?? 0) > 0;
}

/** Reads the selected items with their conversations, and the vectors (and access counts) the selection asks for. */
export async function readTenantRows(
  run: StatementRunner,
  tenantId: string,
  selection: ItemSelection,
): Promise<TenantSnapshot> {
  const messageRows = itemsOf('m', 'message', tenantId, selection);
  const messages = wants(selection, 'message')
    ? (
        await run<MessageLoadRow>({
          text: `SELECT m.id::text, m.conversation_id::text, m.agent, m.role, m.author, ${us('m.created_at')} AS created_us,
                        m.stream_seq::float8 AS stream_seq, m.position, m.token_estimate,
                        right(rtrim(m.content), 1) = '?' AS asks, m.language::text AS language,
                        array_to_string(tsvector_to_array(m.tsv), ' ') AS lexemes
                   FROM ${messageRows.from}`,
          values: messageRows.values,
        })
      ).map(toMessageDoc)
    : [];
  const summaryRows = itemsOf('s', 'summary', tenantId, selection);
  const summaries = wants(selection, 'summary')
    ? (
        await run<SummaryLoadRow>({
          text: `SELECT s.id::text, s.conversation_id::text, s.agent, ${us('s.earliest_at')} AS earliest_us,
                        ${us('s.latest_at')} AS latest_us, s.token_estimate, s.language::text AS language, array_to_string(tsvector_to_array(s.tsv), ' ') AS lexemes,
                        coalesce((SELECT json_agg(json_build_object('kind', ss.source_kind, 'id', ss.source_id::text, 'ordinal', ss.ordinal))
                                    FROM summary_sources ss WHERE ss.summary_id = s.id AND ss.tenant_id = $1), '[]') AS sources
                   FROM ${summaryRows.from}`,
          values: summaryRows.values,
        })
      ).map(toSummaryDoc)
    : [];
  const factRows = itemsOf('f', 'fact', tenantId, selection);
  const facts = wants(selection, 'fact')
    ? (
        await run<FactLoadRow>({
          text: `SELECT f.id::text, f.conversation_id::text, f.agent, ${us('f.valid_from')} AS valid_from_us,
                        ${us('f.valid_to')} AS valid_to_us, ${us('f.expires_at')} AS expires_us, f.importance,
                        greatest(1, length(f.content) / 4) AS length, f.language::text AS language, array_to_string(tsvector_to_array(f.tsv), ' ') AS lexemes,
                        f.source_message_ids::text[] AS sources
                   FROM ${factRows.from}`,
          values: factRows.values,
        })
      ).map(toFactDoc)
    : [];
  const conversationIds = [
    ...new Set([
      ...(selection.within ?? selection.conversation ?? []),
      ...messages.map((m) => m.conversationId),
      ...summaries.map((s) => s.conversationId),
      ...facts.flatMap((f) => (f.conversationId ? [f.conversationId] : [])),
    ]),
  ];
  const conversations =
    conversationIds.length > 0
      ? await run<ConversationDoc>({
          text: `SELECT c.id::text AS id, c.channel FROM ${rowsById('conversations', 'c', '$2', '$1')}`,
          values: [tenantId, conversationIds],
        })
      : [];
  if (selection.within) {
    // A page of a load: the vectors and access counts of exactly the items read.
    const refs = [
      ...messages.map((m) => ({ kind: 'message' as const, id: m.id })),
      ...summaries.map((x) => ({ kind: 'summary' as const, id: x.id })),
      ...facts.map((f) => ({ kind: 'fact' as const, id: f.id })),
    ];
    if (refs.length === 0) return { conversations, messages, summaries, facts, vectors: [], access: [] };
    const vectors = await readVectors(run, tenantId, refs);
    const access = await readAccess(run, tenantId, refs);
    return { conversations, messages, summaries, facts, vectors, access };
  }
  const vectors = selection.vectors?.length ? await readVectors(run, tenantId, selection.vectors) : [];
  return { conversations, messages, summaries, facts, vectors, access: [] };
}

/** The plan of a load: the tenant's conversations with their message counts, in id order; null when the tenant does not exist. */
export async function readCatalogue(
  run: StatementRunner,
  tenantId: string,
): Promise<Array<{ id: string; messages: number }> | null> {
  return (await tenantExists(run, tenantId)) ? readConversationSizes(run, tenantId) : null;
}

type Refs = ReadonlyArray<{ kind: ItemKind; id: string }>;

/** Rows of a table keyed by (item_kind, item_id) that belong to the tenant ($1), of these refs ($2, $3). */
const ofRefs = (alias: string) =>
  `${alias}.tenant_id = $1 AND (${alias}.item_kind, ${alias}.item_id) IN (SELECT * FROM unnest($2::text[], $3::bigint[]))`;
const refValues = (tenantId: string, refs: Refs) => [
  tenantId,
  refs.map((r) => r.kind),
  refs.map((r) => r.id),
];

/** Vectors of these items of the tenant, every model's. */
async function readVectors(run: StatementRunner, tenantId: string, refs: Refs): Promise<VectorDoc[]> {
  const rows = await run<{ kind: ItemKind; id: string; model: string; vector: Buffer }>({
    text: `SELECT e.item_kind AS kind, e.item_id::text AS id, e.model, halfvec_send(e.embedding) AS vector
             FROM embeddings e WHERE ${ofRefs('e')}`,
    values: refValues(tenantId, refs),
  });
  return rows.map((r) => ({ kind: r.kind, id: r.id, model: r.model, vector: decodeHalfvec(r.vector) }));
}

/** Access counts of these items of the tenant. */
async function readAccess(run: StatementRunner, tenantId: string, refs: Refs): Promise<AccessDoc[]> {
  const rows = await run<{ kind: ItemKind; id: string; count: number; last_us: number }>({
    text: `SELECT a.item_kind AS kind, a.item_id::text AS id, a.access_count AS count, ${us('a.last_accessed_at')} AS last_us
             FROM item_access a WHERE ${ofRefs('a')}`,
    values: refValues(tenantId, refs),
  });
  return rows.map((r) => ({ kind: r.kind, id: r.id, count: r.count, lastAccessedAtUs: Number(r.last_us) }));
}

/** Each conversation's message count in the store, in id order: what the index must hold to be current. */
export async function readConversationSizes(
  run: StatementRunner,
  tenantId: string,
): Promise<Array<{ id: string; messages: number }>> {
  return run<{ id: string; messages: number }>({
    text: `SELECT c.id::text AS id, c.message_count AS messages FROM conversations c WHERE c.tenant_id = $1 ORDER BY c.id`,
    values: [tenantId],
  });
}

/** The messages of these conversations (to catch up with the store). */
export async function readConversationMessages(
  run: StatementRunner,
  tenantId: string,
  conversationIds: readonly string[],
): Promise<string[]> {
  const rows = await run<{ id: string }>({
    text: `SELECT m.id::text AS id FROM messages m WHERE m.tenant_id = $1 AND m.conversation_id = ANY($2::bigint[])`,
    values: [tenantId, conversationIds],
  });
  return rows.map((r) => r.id);
}

/** How many summaries and facts the store holds for the tenant (rows are only ever added: a count that grew is news). */
export async function readDerivedCounts(
  run: StatementRunner,
  tenantId: string,
): Promise<{ summary: number; fact: number }> {
  const [row] = await run<{ summary: number; fact: number }>({
    text: `SELECT (SELECT count(*) FROM summaries WHERE tenant_id = $1)::int AS summary,
                  (SELECT count(*) FROM facts WHERE tenant_id = $1)::int AS fact`,
    values: [tenantId],
  });
  return row ?? { summary: 0, fact: 0 };
}

/** The tenant's items and vectors in the store, counted (what a reconciled index should hold). */
export async function readStoreCounts(
  run: StatementRunner,
  tenantId: string,
): Promise<{ messages: number; summaries: number; facts: number; vectors: number }> {
  const [row] = await run<{ messages: number; summaries: number; facts: number; vectors: number }>({
    text: `SELECT (SELECT count(*) FROM messages WHERE tenant_id = $1)::int AS messages,
                  (SELECT count(*) FROM summaries WHERE tenant_id = $1)::int AS summaries,
                  (SELECT count(*) FROM facts WHERE tenant_id = $1)::int AS facts,
                  (SELECT count(*) FROM embeddings WHERE tenant_id = $1)::int AS vectors`,
    values: [tenantId],
  });
  return row ?? { messages: 0, summaries: 0, facts: 0, vectors: 0 };
}

/**
 * Rows inserted and deleted so far in the tables an index counts, every tenant's (Postgres'
 * statistics, kept per table: no row is read). While it stays the same, no count has changed.
 * Null where the statistics are not kept (track_counts off).
 */
export async function readStoreChanges(run: StatementRunner): Promise<string | null> {
  const [row] = await run<{ changes: string | null }>({
    text: `SELECT sum(s.n_tup_ins + s.n_tup_del)::text AS changes
             FROM pg_stat_user_tables s
            WHERE current_setting('track_counts')::bool
              AND (s.relid = ANY (ARRAY['messages', 'summaries', 'facts']::regclass[])
                   OR s.relid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'embeddings'::regclass))`,
    values: [],
  });
  return row?.changes ?? null;
}

/** Every id of the tenant's summaries or facts (to find those an index lacks). */
export async function readDerivedIds(
  run: StatementRunner,
  tenantId: string,
  kind: 'summary' | 'fact',
): Promise<string[]> {
  const table = kind === 'summary' ? 'summaries' : 'facts';
  const rows = await run<{ id: string }>({
    text: `SELECT x.id::text AS id FROM ${table} x WHERE x.tenant_id = $1`,
    values: [tenantId],
  });
  return rows.map((r) => r.id);
}

/** Every 16-bit half as the float it stands for, made once: decoding is then one lookup per component. */
let halves: Float32Array | null = null;
function halfTable(): Float32Array {
  if (!halves) {
    halves = new Float32Array(65536);
    const view = new DataView(new ArrayBuffer(2));
    for (let bits = 0; bits < 65536; bits++) {
      view.setUint16(0, bits);
      halves[bits] = getFloat16(view, 0);
    }
  }
  return halves;
}

/** pgvector's binary halfvec (`halfvec_send`): dimensions (int16), unused (int16), then big-endian halves. */
export function decodeHalfvec(bytes: Uint8Array): Float32Array {
  const table = halfTable();
  const dimensions = (bytes[0]! << 8) | bytes[1]!;
  const vector = new Float32Array(dimensions);
  for (let i = 0, at = 4; i < dimensions; i++, at += 2)
    vector[i] = table[(bytes[at]! << 8) | bytes[at + 1]!]!;
  return vector;
}

/**
 * The lexemes read as one string, split here: Postgres' text-array format costs a parser call
 * per element, the largest share of a load's parsing. No lexeme of the default parser holds a space.
 */
function lexemesOf(joined: string): string[] {
  return joined === '' ? [] : joined.split(' ');
}

/** A row of the load statement of messages (its lexemes and times as the index keeps them), not the table's row. */
interface MessageLoadRow {
  language: string;
  id: string;
  conversation_id: string;
  agent: string;
  role: string;
  author: string | null;
  created_us: number;
  stream_seq: number;
  position: number;
  token_estimate: number;
  asks: boolean;
  lexemes: string;
}

/** A row of the load statement of summaries, not the table's row. */
interface SummaryLoadRow {
  language: string;
  id: string;
  conversation_id: string;
  agent: string;
  earliest_us: number;
  latest_us: number;
  token_estimate: number;
  lexemes: string;
  sources: Array<{ kind: 'message' | 'summary'; id: string; ordinal: number }>;
}

/** A row of the load statement of facts (validity in microseconds), not the table's row. */
interface FactLoadRow {
  language: string;
  id: string;
  conversation_id: string | null;
  agent: string;
  valid_from_us: number;
  valid_to_us: number | null;
  expires_us: number | null;
  importance: number;
  length: number;
  lexemes: string;
  sources: string[];
}

const toMessageDoc = (r: MessageLoadRow): MessageDoc => ({
  id: r.id,
  conversationId: r.conversation_id,
  agent: r.agent,
  role: r.role,
  author: r.author,
  createdAtUs: Number(r.created_us),
  streamSeq: Number(r.stream_seq),
  position: r.position,
  tokenEstimate: r.token_estimate,
  asks: r.asks,
  language: r.language,
  lexemes: lexemesOf(r.lexemes),
});

const toSummaryDoc = (r: SummaryLoadRow): SummaryDoc => ({
  id: r.id,
  conversationId: r.conversation_id,
  agent: r.agent,
  earliestAtUs: Number(r.earliest_us),
  latestAtUs: Number(r.latest_us),
  tokenEstimate: r.token_estimate,
  language: r.language,
  lexemes: lexemesOf(r.lexemes),
  sources: r.sources,
});

const toFactDoc = (r: FactLoadRow): FactDoc => ({
  id: r.id,
  conversationId: r.conversation_id,
  agent: r.agent,
  validFromUs: Number(r.valid_from_us),
  validToUs: r.valid_to_us === null ? null : Number(r.valid_to_us),
  expiresAtUs: r.expires_us === null ? null : Number(r.expires_us),
  importance: r.importance,
  length: r.length,
  language: r.language,
  lexemes: lexemesOf(r.lexemes),
  sourceMessageIds: r.sources,
});
