import { Client } from 'pg';
import { CopySink } from '../copy/copy-sink';
import { copyRow } from '../copy/message-rows';
import { dropIndexes, indexDifferences, recordIndexes, recreateIndexes } from './bulk-indexes';
import { CorpusGenerator, SUMMARY_MODEL, type ConversationCorpus } from './corpus-generator';
import type { TenantPlan } from './corpus-shape';

/** What makes the vectors: the built-in model (LocalEmbedder), or anything with its embed(). */
export interface TextEmbedder {
  readonly modelId: string;
  embed(texts: readonly string[]): Float32Array[];
}

export interface LoadReport {
  readonly rows: Record<string, number>;
  readonly copyMegabytes: number;
  readonly seconds: {
    /** Generating text and vectors and COPYing them, overlapped (the indexes not yet built). */
    readonly generateAndCopy: number;
    /** Of which the generator (text and vectors), on this process's one thread. */
    readonly generate: number;
    readonly indexes: Record<string, number>;
    readonly vacuumAnalyze: number;
    readonly total: number;
  };
  readonly databaseMegabytes: number;
  /** The indexes dropped before the COPY and built again after it, as the migrations defined them. */
  readonly rebuiltIndexes: readonly string[];
}

const TABLES = {
  conversations: [
    'id',
    'tenant_id',
    'agent',
    'session_key',
    'channel',
    'title',
    'model',
    'message_count',
    'token_estimate',
    'first_message_at',
    'last_message_at',
    'created_at',
    'updated_at',
  ],
  messages: [
    'id',
    'tenant_id',
    'conversation_id',
    'agent',
    'turn_id',
    'position',
    'stream_seq',
    'role',
    'author',
    'content',
    'token_estimate',
    'created_at',
    'ingested_at',
  ],
  summaries: [
    'id',
    'tenant_id',
    'conversation_id',
    'agent',
    'depth',
    'content',
    'earliest_at',
    'latest_at',
    'message_count',
    'token_estimate',
    'model',
    'created_at',
  ],
  summary_sources: ['tenant_id', 'summary_id', 'source_kind', 'source_id', 'ordinal'],
  facts: [
    'id',
    'tenant_id',
    'agent',
    'content',
    'category',
    'lifetime',
    'importance',
    'origin',
    'origin_key',
    'conversation_id',
    'source_message_ids',
    'valid_from',
    'valid_to',
    'superseded_by',
    'expires_at',
    'created_at',
    'updated_at',
  ],
  embeddings: ['item_kind', 'item_id', 'tenant_id', 'model', 'embedding', 'embedded_at'],
} as const;
type Table = keyof typeof TABLES;

/** Tables whose identity sequence must continue after the loaded ids. */
const IDENTITY_TABLES = ['conversations', 'messages', 'summaries', 'facts'] as const;

const iso = (ms: number) => new Date(ms).toISOString();
const tokens = (text: string) => Math.ceil(text.length / 4);

/** pgvector's text form, rounded to what halfvec keeps anyway (5 decimals on unit vectors). */
export function vectorText(vector: ArrayLike<number>): string {
  let out = '[';
  for (let i = 0; i < vector.length; i++) out += (i ? ',' : '') + Math.round(vector[i]! * 1e5) / 1e5;
  return `${out}]`;
}

/** COPY text of one conversation's rows, table by table (vectors included). */
export function conversationCopyText(
  tenantId: string,
  c: ConversationCorpus,
  embedder: TextEmbedder,
): Record<Table, { text: string; rows: number }> {
  const { plan, messages, summaries, facts } = c;
  const first = messages[0]!.createdAtMs;
  const last = messages[messages.length - 1]!.createdAtMs;
  const out = {} as Record<Table, { text: string; rows: number }>;
  const put = (table: Table, lines: string[]) => (out[table] = { text: lines.join(''), rows: lines.length });
  put('conversations', [
    copyRow([
      plan.id,
      tenantId,
      plan.agent,
      plan.sessionKey,
      plan.channel,
      c.title,
      plan.model,
      messages.length,
      messages.reduce((n, m) => n + tokens(m.content), 0),
      iso(first),
      iso(last),
      iso(first),
      iso(last),
    ]),
  ]);
  put(
    'messages',
    messages.map((m) =>
      copyRow([
        m.id,
        tenantId,
        plan.id,
        plan.agent,
        m.turnId,
        m.position,
        m.id,
        m.role,
        m.author,
        m.content,
        tokens(m.content),
        iso(m.createdAtMs),
        iso(m.createdAtMs + 150),
      ]),
    ),
  );
  put(
    'summaries',
    summaries.map((s) =>
      copyRow([
        s.id,
        tenantId,
        plan.id,
        plan.agent,
        s.depth,
        s.content,
        iso(s.earliestAtMs),
        iso(s.latestAtMs),
        s.messageCount,
        tokens(s.content),
        SUMMARY_MODEL,
        iso(s.createdAtMs),
      ]),
    ),
  );
  put(
    'summary_sources',
    summaries.flatMap((s) =>
      s.sourceIds.map((id, ordinal) => copyRow([tenantId, s.id, s.sourceKind, id, ordinal])),
    ),
  );
  put(
    'facts',
    facts.map((f) =>
      copyRow([
        f.id,
        tenantId,
        plan.agent,
        f.content,
        f.category,
        f.lifetime,
        f.importance,
        f.origin,
        f.originKey,
        plan.id,
        `{${f.sourceMessageIds.join(',')}}`,
        iso(f.validFromMs),
        f.validToMs === null ? null : iso(f.validToMs),
        f.supersededBy,
        f.expiresAtMs === null ? null : iso(f.expiresAtMs),
        iso(f.validFromMs + 2000),
        iso(f.validToMs ?? f.validFromMs + 2000),
      ]),
    ),
  );
  const items: Array<{ kind: string; id: number; text: string; atMs: number }> = [
    ...messages.map((m) => ({ kind: 'message', id: m.id, text: m.content, atMs: m.createdAtMs + 900 })),
    ...summaries.map((s) => ({ kind: 'summary', id: s.id, text: s.content, atMs: s.createdAtMs + 900 })),
    ...facts.map((f) => ({ kind: 'fact', id: f.id, text: f.content, atMs: f.validFromMs + 2900 })),
  ];
  const vectors = embedder.embed(items.map((i) => i.text));
  put(
    'embeddings',
    items.map((item, i) =>
      copyRow([item.kind, item.id, tenantId, embedder.modelId, vectorText(vectors[i]!), iso(item.atMs)]),
    ),
  );
  return out;
}

/**
 * Loads a generated corpus into a freshly migrated database, as the superuser (Postgres refuses
 * COPY into a table with row-level security to any role subject to it): the HNSW and GIN
 * indexes are recorded (pg_get_indexdef) and dropped, every table is COPYed at once from one
 * generator (foreign keys are not checked row by row: session_replication_role = replica; they
 * are checked once afterwards), the identity sequences continue after the loaded ids, the indexes
 * are built again from their recorded definitions, then VACUUM ANALYZE. The schema ends as the
 * migrations made it (checked).
 */
export async function loadCorpus(
  adminUrl: string,
  tenants: readonly TenantPlan[],
  generator: CorpusGenerator,
  embedder: TextEmbedder,
  progress: (text: string) => void,
): Promise<LoadReport> {
  const started = performance.now();
  const admin = new Client({ connectionString: adminUrl, application_name: 'engram-bench-search-load' });
  await admin.connect();
  const sinks: CopySink[] = [];
  try {
    const indexes = await recordIndexes(admin, Object.keys(TABLES));
    await dropIndexes(admin, indexes);
    progress(`dropped ${indexes.map((i) => i.name).join(', ')} for the load`);
    await admin.query(`INSERT INTO tenants (tenant_id) SELECT unnest($1::text[])`, [
      tenants.map((t) => t.id),
    ]);

    for (const [table, columns] of Object.entries(TABLES)) {
      sinks.push(await CopySink.open(adminUrl, table, columns, [`SET session_replication_role = replica`]));
    }
    const sink = new Map(sinks.map((s) => [s.table as Table, s]));
    const total = tenants.reduce((n, t) => n + t.messages, 0);
    let generateMs = 0;
    let lastReport = performance.now();
    for (const tenant of tenants) {
      for (const plan of tenant.conversations) {
        const t0 = performance.now();
        const copy = conversationCopyText(tenant.id, generator.conversation(tenant, plan), embedder);
        generateMs += performance.now() - t0;
        await Promise.all(
          Object.entries(copy).map(([table, { text, rows }]) => sink.get(table as Table)!.write(text, rows)),
        );
        // Let the sockets drain while the next conversation is generated.
        await new Promise((r) => setImmediate(r));
      }
      if (performance.now() - lastReport > 5000 || tenant === tenants[tenants.length - 1]) {
        lastReport = performance.now();
        const done = generator.counts.messages;
        const seconds = (lastReport - started) / 1000;
        progress(
          `COPY: ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} messages, tenant ${tenant.index + 1}/${tenants.length} (${Math.round(done / seconds).toLocaleString('en-US')} messages/s)`,
        );
      }
    }
    for (const s of sinks) await s.close();
    const copied = performance.now();
    progress(
      `COPY done in ${((copied - started) / 1000).toFixed(1)} s (generator ${(generateMs / 1000).toFixed(1)} s)`,
    );

    for (const table of IDENTITY_TABLES) {
      await admin.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT max(id) FROM ${table}))`, [
        table,
      ]);
    }
    await checkIntegrity(admin);

    const built = await recreateIndexes(admin, indexes, progress);
    const differences = await indexDifferences(admin, indexes);
    if (differences.length)
      throw new Error(`the indexes differ from the migrations' after the load: ${differences.join('; ')}`);
    const vacuumStarted = performance.now();
    progress('VACUUM ANALYZE …');
    for (const table of Object.keys(TABLES)) await admin.query(`VACUUM (ANALYZE) ${table}`);
    const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
    const size = await admin.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
    return {
      rows: Object.fromEntries(sinks.map((s) => [s.table, s.rows])),
      copyMegabytes: Math.round(sinks.reduce((n, s) => n + s.bytes, 0) / 2 ** 20),
      seconds: {
        generateAndCopy: (copied - started) / 1000,
        generate: generateMs / 1000,
        indexes: Object.fromEntries(built.map((b) => [b.name, Math.round(b.seconds * 10) / 10])),
        vacuumAnalyze: vacuumSeconds,
        total: (performance.now() - started) / 1000,
      },
      databaseMegabytes: Math.round(Number(size.rows[0]!.bytes) / 2 ** 20),
      rebuiltIndexes: indexes.map((i) => i.definition),
    };
  } catch (error) {
    await Promise.all(sinks.map((s) => s.abort()));
    throw error;
  } finally {
    await admin.end();
  }
}

/** The foreign keys the COPY did not check row by row, and one vector per row: checked once, in bulk. */
async function checkIntegrity(admin: Client): Promise<void> {
  const { rows } = await admin.query<Record<string, string>>(`
    SELECT
      (SELECT count(*) FROM messages m WHERE NOT EXISTS (SELECT 1 FROM conversations c WHERE c.id = m.conversation_id AND c.tenant_id = m.tenant_id)) AS messages_without_conversation,
      (SELECT count(*) FROM summaries s WHERE NOT EXISTS (SELECT 1 FROM conversations c WHERE c.id = s.conversation_id AND c.tenant_id = s.tenant_id)) AS summaries_without_conversation,
      (SELECT count(*) FROM summary_sources x WHERE NOT EXISTS (SELECT 1 FROM summaries s WHERE s.id = x.summary_id)) AS sources_without_summary,
      (SELECT count(*) FROM facts f WHERE f.superseded_by IS NOT NULL AND NOT EXISTS (SELECT 1 FROM facts g WHERE g.id = f.superseded_by)) AS facts_superseded_by_nothing,
      (SELECT count(*) FROM conversations c WHERE NOT EXISTS (SELECT 1 FROM tenants t WHERE t.tenant_id = c.tenant_id)) AS conversations_without_tenant,
      (SELECT count(*) FROM messages) + (SELECT count(*) FROM summaries) + (SELECT count(*) FROM facts) - (SELECT count(*) FROM embeddings) AS rows_without_vector`);
  const broken = Object.entries(rows[0]!).filter(([, n]) => Number(n) !== 0);
  if (broken.length)
    throw new Error(`the loaded corpus is inconsistent: ${broken.map(([k, n]) => `${k} ${n}`).join(', ')}`);
}
