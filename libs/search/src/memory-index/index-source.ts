import { f16round } from '@petamoriken/float16';
import type { ItemKind } from '../ranking/candidate';
import {
  CANDIDATE_BUDGET,
  DF_COUNT_CAP,
  searchItemsStatement,
  SEMANTIC_CANDIDATES,
  type CandidatesInput,
} from '../plan/search-plan';
import type { CandidateRow, ExpansionRow, ItemRow, NeighbourRow, TermRow } from '../plan/search-rows';
import type { SearchScope } from '../plan/search-scope';
import type { SearchSource, StatementRunner } from '../plan/search-source';
import type { LexemeCache } from './lexeme-cache';
import type { ItemTable, TenantIndex } from './tenant-index';
import { SlotList } from './columns';
import { firstInSlotOrder, intersect, matchedBits, matchedBitsOf } from './slot-merge';
import { squaredNorm, type VectorSet } from './vector-set';

const EXPANSION_DEPTH = 3;

/**
 * The plan's steps answered from the tenant's in-memory index: the same rows, with the same
 * meaning, as the statements in search-plan.ts (a differential spec holds them to it). Only the
 * query's words (through the lexeme cache) and the returned items are read from Postgres, with
 * `run` in the tenant's transaction. Full text only: trigram and regex stay on the SQL path.
 */
export function indexSearchSource(
  index: TenantIndex,
  run: StatementRunner,
  lexemes: LexemeCache,
  now: Date,
): SearchSource {
  const nowUs = now.getTime() * 1000;
  return {
    path: 'index',
    terms: async (_tenantId, text) => termRows(index, await lexemes.termsOf(text, index.languages, run)),
    frequencies: async (scope, terms) => {
      const inScope = scopeTest(index, 'message', scope);
      const reach = reachOf(index, 'message', scope);
      return terms.map((lexeme, term) => {
        const postings = index.messages.postings.get(lexeme);
        const df = Math.min(postings?.length ?? 0, DF_COUNT_CAP);
        if (!inScope) return { term, df, scoped_df: null };
        const held = postings && reach ? intersect(postings, reach) : postings;
        let scoped = 0;
        for (let i = 0; held && i < held.length && scoped < DF_COUNT_CAP; i++)
          if (inScope(held.at(i))) scoped++;
        return { term, df, scoped_df: scoped };
      });
    },
    candidates: async (input) => candidateRows(index, input, nowUs),
    neighbours: async (scope, seeds, terms, vector, model) =>
      neighbourRows(index, scope, seeds, terms, queryOf(vector), model),
    expansions: async (scope, summaryIds, factIds, terms) =>
      expansionRows(index, summaryIds, factIds, terms, usOf(scope.asOf)),
    items: (scope, refs) => run<ItemRow>(searchItemsStatement(scope, refs)),
  };
}

/** The terms statement's rows: the query's terms with their words, and the tenant's size. */
function termRows(index: TenantIndex, terms: ReadonlyArray<{ lexeme: string; words: string[] }>): TermRow[] {
  const size = { documents: String(index.documents), average_length: index.averageLength, known: true };
  if (terms.length === 0) return [{ lexeme: null, words: null, ...size }];
  return terms.map((t) => ({ lexeme: t.lexeme, words: t.words, ...size }));
}

/** The query vector as Postgres compares it: cast to halfvec, each component rounded to 16 bits. */
function queryOf(vector: readonly number[] | null): Float32Array | null {
  // Postgres reads the text as float4, then rounds to half.
  return vector ? Float32Array.from(vector, (v) => f16round(Math.fround(v))) : null;
}

/**
 * The scope as a test on a slot of `kind` (scopePredicate's meaning), or null when it passes
 * everything: agent, conversation, channel, roles (messages only) and time (a message when said,
 * a summary the span it covers, a fact since when it holds; as of a moment, nothing later).
 */
export function scopeTest(
  index: TenantIndex,
  kind: ItemKind,
  scope: SearchScope,
): ((slot: number) => boolean) | null {
  // The index holds no metadata: a search filtering on it is answered by Postgres.
  if (scope.metadata) throw new Error('a metadata filter is not served from the index');
  const t = index.table(kind);
  const tests: Array<(slot: number) => boolean> = [];
  if (scope.agent) {
    const agent = index.agents.find(scope.agent);
    tests.push((s) => t.agent.get(s) === agent);
  }
  if (scope.conversationId) {
    const conversation = index.conversations.find(scope.conversationId);
    tests.push((s) => t.conversation.get(s) === conversation);
  }
  if (scope.channel) {
    const channel = index.channelNames.find(scope.channel);
    tests.push((s) => t.conversation.get(s) >= 0 && index.channels.get(t.conversation.get(s)) === channel);
  }
  if (scope.roles && scope.roles.length > 0) {
    if (kind !== 'message') return () => false;
    const roles = new Set(scope.roles.map((r) => index.roles.find(r)));
    tests.push((s) => roles.has(index.role.get(s)));
  }
  const fromUs = scope.from ? scope.from.getTime() * 1000 : null;
  const toUs = scope.to ? scope.to.getTime() * 1000 : null;
  if (fromUs !== null) tests.push((s) => t.time.get(s) >= fromUs);
  if (toUs !== null) {
    const end = kind === 'summary' ? index.earliest : t.time;
    tests.push((s) => end.get(s) <= toUs);
  }
  const asOfUs = usOf(scope.asOf);
  if (asOfUs !== null) tests.push((s) => t.time.get(s) <= asOfUs);
  if (tests.length === 0) return null;
  if (tests.length === 1) return tests[0]!;
  return (slot) => {
    for (const test of tests) if (!test(slot)) return false;
    return true;
  };
}

/**
 * The slots of `kind` a scope can reach at all, when it names an agent or a conversation: the
 * shorter of their lists (an empty one for a name the tenant never had); null when it names
 * neither. A scoped search reads these instead of the whole tenant; the scope test still applies.
 */
export function reachOf(index: TenantIndex, kind: ItemKind, scope: SearchScope): SlotList | null {
  const t = index.table(kind);
  const lists: SlotList[] = [];
  if (scope.agent) lists.push(t.byAgent.get(index.agents.find(scope.agent)) ?? EMPTY);
  if (scope.conversationId)
    lists.push(t.byConversation.get(index.conversations.find(scope.conversationId)) ?? EMPTY);
  return lists.reduce<SlotList | null>((a, b) => (a === null || b.length < a.length ? b : a), null);
}

const EMPTY = new SlotList();

/**
 * A fact is in force while open and not expired (memory-core's factInForce, over the index's
 * columns); as of a moment, when it held by then and was neither closed nor expired by then
 * (factInForceAsOf). Messages and summaries always are.
 */
function aliveTest(
  index: TenantIndex,
  kind: ItemKind,
  nowUs: number,
  asOfUs: number | null,
): ((slot: number) => boolean) | null {
  if (kind !== 'fact') return null;
  const at = asOfUs ?? nowUs;
  return (s) => {
    const closed = index.validTo.get(s);
    if (!Number.isNaN(closed) && (asOfUs === null || closed <= asOfUs)) return false;
    if (asOfUs !== null && index.facts.time.get(s) > asOfUs) return false;
    const expires = index.expiresAt.get(s);
    return Number.isNaN(expires) || expires > at;
  };
}

/** The candidates statement's rows: items holding a chosen lexeme (in force, in scope, up to the budget) and the nearest vectors. */
function candidateRows(index: TenantIndex, input: CandidatesInput, nowUs: number): CandidateRow[] {
  if (input.mode !== 'fulltext') throw new Error(`the index answers full text only, not ${input.mode}`);
  const query = queryOf(input.vector);
  const rows: CandidateRow[] = [];
  for (const kind of input.scope.kinds) {
    const t = index.table(kind);
    const inScope = scopeTest(index, kind, input.scope);
    const alive = aliveTest(index, kind, nowUs, usOf(input.scope.asOf));
    const filtered = alive !== null || inScope !== null;
    const eligible = (s: number) => (alive === null || alive(s)) && (inScope === null || inScope(s));
    const reach = reachOf(index, kind, input.scope);
    // Every eligible slot is within reach: the lists narrowed to it give the same slots.
    const chosen = input.chosen.flatMap((l) => {
      const list = t.postings.get(l);
      return !list ? [] : reach ? [intersect(list, reach)] : [list];
    });
    // In slot order, like a scan of the lists merged, up to the budget; every one taken is eligible.
    const lexical = firstInSlotOrder(chosen, CANDIDATE_BUDGET, eligible);
    const columns = new CandidateColumns(index, kind, input.terms, query, input.model);
    const bits = matchedBits(columns.lists, lexical);
    for (let i = 0; i < lexical.length; i++) rows.push(columns.row(lexical[i]!, bits[i]!, true));
    const vectors = query && input.model ? t.vectors.get(input.model) : undefined;
    if (query && vectors && vectors.dimensions === query.length) {
      // The nearest of what the filters let through, as the SQL path's filtered scan.
      const nearest = filtered
        ? vectors.nearest(query, SEMANTIC_CANDIDATES, eligible, reach ?? undefined)
        : vectors.nearest(query, SEMANTIC_CANDIDATES);
      for (const s of nearest) {
        if (isIn(lexical, s)) continue;
        rows.push(columns.row(s, matchedBitsOf(columns.lists, s), true));
      }
    }
  }
  return rows;
}

/** Whether the ascending `slots` hold `slot`. */
function isIn(slots: Int32Array, slot: number): boolean {
  let lo = 0;
  let hi = slots.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (slots[mid]! < slot) lo = mid + 1;
    else hi = mid;
  }
  return lo < slots.length && slots[lo] === slot;
}

/** Columns every candidate row has (candidateColumns in search-plan.ts), for one kind, one query. */
class CandidateColumns {
  /** The query terms' posting lists in this kind (bit i = terms[i]). */
  readonly lists: ReadonlyArray<SlotList | undefined>;
  private readonly table: ItemTable;
  private readonly vectors: VectorSet | undefined;
  private readonly queryNorm: number;

  constructor(
    private readonly index: TenantIndex,
    private readonly kind: ItemKind,
    terms: readonly string[],
    private readonly query: Float32Array | null,
    model: string | null,
  ) {
    this.table = index.table(kind);
    this.lists = terms.map((term) => this.table.postings.get(term));
    this.vectors = query && model ? this.table.vectors.get(model) : undefined;
    this.queryNorm = query ? squaredNorm(query) : 0;
  }

  /** The row of `slot`, given which terms it holds and whether it passes the filters. */
  row(slot: number, matched: number, eligible: boolean): CandidateRow {
    const { index, kind, table: t } = this;
    const lastAccess = t.lastAccess.get(slot);
    const accessed = !Number.isNaN(lastAccess);
    return {
      kind,
      id: t.id(slot),
      conversation_id: index.conversations.value(t.conversation.get(slot)),
      role: kind === 'message' ? index.roles.value(index.role.get(slot)) : null,
      author: kind === 'message' ? index.authors.value(index.author.get(slot)) : null,
      created_at: dateOf(t.time.get(slot)),
      length: t.length.get(slot),
      matched,
      cosine: this.vectors && this.query ? this.vectors.cosine(slot, this.query, this.queryNorm) : null,
      asks: kind === 'message' && index.asks.get(slot) === 1,
      importance: kind === 'fact' ? index.importance.get(slot) : null,
      access_count: accessed ? t.accessCount.get(slot) : null,
      last_accessed_at: accessed ? dateOf(lastAccess) : null,
      lexical_score: null,
      eligible,
    };
  }
}

/** The neighbours statement's rows: two turns before and after each seed, in transcript order. */
function neighbourRows(
  index: TenantIndex,
  scope: SearchScope,
  seeds: readonly string[],
  terms: readonly string[],
  query: Float32Array | null,
  model: string | null,
): NeighbourRow[] {
  const t = index.messages;
  const inScope = scopeTest(index, 'message', scope);
  const columns = new CandidateColumns(index, 'message', terms, query, model);
  // As of a moment, the conversation ends there (the turns are in time order).
  const asOfUs = usOf(scope.asOf);
  const said = (slot: number) => asOfUs === null || t.time.get(slot) <= asOfUs;
  const rows: NeighbourRow[] = [];
  for (const seed of seeds) {
    const slot = t.slot(seed);
    if (slot === undefined) continue;
    const turns = index.turns.get(t.conversation.get(slot));
    if (!turns) continue;
    const at = turnIndex(index, turns, slot);
    for (const offset of [-2, -1, 1, 2]) {
      const i = at + offset;
      if (i < 0 || i >= turns.length) continue;
      const n = turns.at(i);
      if (!said(n)) continue;
      const row = columns.row(n, matchedBitsOf(columns.lists, n), inScope === null || inScope(n));
      rows.push({ seed, offset, ...row });
    }
  }
  return rows;
}

/** Where `slot` stands in its conversation's order (a binary search on the order's key). */
function turnIndex(
  index: TenantIndex,
  turns: { length: number; at(i: number): number },
  slot: number,
): number {
  let lo = 0;
  let hi = turns.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.compareTurns(turns.at(mid), slot) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The expansion statement's rows: messages under a summary (three levels down) and its child
 * summaries; a fact's source messages; as of a moment (`asOfUs`), those said by then.
 */
function expansionRows(
  index: TenantIndex,
  summaryIds: readonly string[],
  factIds: readonly string[],
  terms: readonly string[],
  asOfUs: number | null,
): ExpansionRow[] {
  const rows: ExpansionRow[] = [];
  const messageLists = terms.map((term) => index.messages.postings.get(term));
  const summaryLists = terms.map((term) => index.summaries.postings.get(term));
  const source = (
    parentKind: 'summary' | 'fact',
    parentId: string,
    kind: 'message' | 'summary',
    id: string,
    level: number,
  ) => {
    const t = kind === 'message' ? index.messages : index.summaries;
    const slot = t.slot(id);
    if (slot === undefined || (asOfUs !== null && t.time.get(slot) > asOfUs)) return;
    rows.push({
      parent_kind: parentKind,
      parent_id: parentId,
      kind,
      id,
      level,
      created_at: dateOf(t.time.get(slot)),
      matched: matchedBitsOf(kind === 'message' ? messageLists : summaryLists, slot),
    });
  };
  const walk = (root: string, summaryId: string, level: number) => {
    const slot = index.summaries.slot(summaryId);
    if (slot === undefined || level > EXPANSION_DEPTH) return;
    for (const s of index.summarySources.get(slot) ?? []) {
      if (s.kind === 'message' || level === 1) source('summary', root, s.kind, s.id, level);
      if (s.kind === 'summary') walk(root, s.id, level + 1);
    }
  };
  for (const id of summaryIds) walk(id, id, 1);
  for (const id of factIds) {
    const slot = index.facts.slot(id);
    if (slot === undefined) continue;
    for (const m of index.factSources.get(slot) ?? []) source('fact', id, 'message', m, 1);
  }
  return rows;
}

/** A moment in microseconds, the index's unit, through the end of its millisecond (throughMillisecond); null for none. */
function usOf(at: Date | undefined): number | null {
  return at ? at.getTime() * 1000 + 999 : null;
}

/** A time in microseconds as the Date node-postgres would give (milliseconds, truncated). */
function dateOf(us: number): Date {
  return new Date(Math.floor(us / 1000));
}
