import { asksForSeveral, roleOfQuery } from '../query/query-intent';
import { findQueryTime } from '../query/query-time';
import { inverseDocumentFrequency } from '../ranking/bm25';
import { candidateKey, type Candidate, type ItemKind } from '../ranking/candidate';
import { chooseCandidateTerms } from '../ranking/candidate-terms';
import { rankCandidates, type Fusion, type QueryTerm, type RankedItem } from '../ranking/rank-candidates';
import type { SearchMode } from './search-plan';
import { withNeighbours } from './neighbour-windows';
import { toCandidate, type ExpansionRow, type ItemRow } from './search-rows';
import type { SearchScope } from './search-scope';
import type { SearchPath, SearchSource } from './search-source';

export interface PlannedSearch {
  readonly query: string;
  readonly mode: SearchMode;
  readonly fusion: Fusion;
  readonly topK: number;
  /** Follow summary and fact hits with their source messages. */
  readonly expand: boolean;
  readonly scope: SearchScope;
}

export type QueryVector =
  { readonly vector: number[]; readonly model: string } | { readonly vector: null; readonly reason: string };

/** A returned item, in order: its ranking (null for an expansion that did not rank itself) and what it expands. */
export interface PlacedItem {
  readonly kind: ItemKind;
  readonly id: string;
  readonly ranked: RankedItem | null;
  /** "summary:45" when placed under the summary or fact it stands for; "" otherwise. */
  readonly expandedFrom: string;
  readonly item: ItemRow;
}

export type SearchOutcome =
  | { readonly known: false }
  | {
      readonly known: true;
      readonly placed: PlacedItem[];
      readonly degradedReason: string;
      /** Which source ranked the items. */
      readonly path: SearchPath;
    };

/** The best messages by a first ranking whose surrounding turns are read for context. */
export const CONTEXT_SEEDS = 40;
/** Source messages shown under a summary or fact hit. */
export const EXPANSIONS_PER_HIT = 3;

/**
 * One search, step by step, from a source confined to the tenant (Postgres or the tenant's
 * index): the query's terms and their frequencies → candidates (rare terms and nearest vectors)
 * → a first ranking → the turns around its best messages → the final ranking → top-k
 * with expansions → the items' content. `vector` is awaited only when the candidates
 * need it, so the caller can have it made while the terms are counted.
 */
export async function runSearch(
  source: SearchSource,
  search: PlannedSearch,
  vector: PromiseLike<QueryVector>,
  now: Date,
): Promise<SearchOutcome> {
  const timed = queryTimeOf(search, now);
  const termRows = await source.terms(search.scope.tenantId, timed.text);
  if (!termRows[0]?.known) return { known: false };
  const documents = Number(termRows[0].documents);
  const averageLength = Number(termRows[0].average_length) || 20;
  const parsed = termRows.filter((r) => r.lexeme !== null);
  const lexemes = parsed.map((t) => t.lexeme!);
  const frequencies = lexemes.length > 0 ? await source.frequencies(search.scope, lexemes) : [];
  const byTerm = new Map(frequencies.map((f) => [Number(f.term), f]));
  const terms: QueryTerm[] = parsed.map((t, i) => ({
    lexeme: t.lexeme!,
    words: t.words ?? [],
    idf: inverseDocumentFrequency(byTerm.get(i)?.df ?? 0, documents),
  }));
  // Idf is the tenant's; which terms pick candidates depends on how many messages they match within the filters.
  const chosen = chooseCandidateTerms(
    terms.map((t, i) => ({ lexeme: t.lexeme, df: byTerm.get(i)?.scoped_df ?? byTerm.get(i)?.df ?? 0 })),
  );

  const queryVector = await vector;
  const values = queryVector.vector;
  const model = queryVector.vector ? queryVector.model : null;
  const firstRows = await source.candidates({
    scope: search.scope,
    mode: search.mode,
    terms: lexemes,
    chosen: search.mode === 'fulltext' ? chosen : [],
    pattern: search.mode === 'fulltext' ? null : search.query,
    vector: values,
    model,
    documents,
  });
  // In one order whatever the source's row order, so equal scores fall the same way (RRF ranks ties by position).
  const first = sortedByKindAndId(firstRows.map((r) => toCandidate(r, search.scope.asOf)));
  const ranking = {
    terms,
    averageLength,
    window: timed.window,
    fusion: search.fusion,
    now,
    role: roleOfQuery(search.query),
    several: asksForSeveral(search.query),
  };

  // Context: the turns around the best messages lend them their words.
  // (Regex and fuzzy matches stand alone: a pattern has no words to lend.)
  const seeds =
    search.mode === 'fulltext'
      ? rankCandidates({ ...ranking, candidates: first })
          .filter((r) => r.candidate.kind === 'message')
          .slice(0, CONTEXT_SEEDS)
          .map((r) => r.candidate.id)
      : [];
  const around = seeds.length > 0 ? await source.neighbours(search.scope, seeds, lexemes, values, model) : [];
  const candidates = sortedByKindAndId(withNeighbours(first, seeds, around, search.scope.asOf));
  const ranked = rankCandidates({ ...ranking, candidates });

  const placed = await place(source, search, ranked, lexemes, terms);
  const items = await source.items(search.scope, refsByKind(placed));
  const byKey = new Map(items.map((i) => [candidateKey(i.kind, String(i.id)), i]));

  const withVectors = candidates.some((c) => c.cosine !== null);
  const degradedReason =
    queryVector.vector === null
      ? `answered from full text only: ${queryVector.reason}`
      : candidates.length > 0 && !withVectors
        ? `answered from full text only: no stored vectors of model ${model} among the matches yet`
        : '';
  return {
    known: true,
    placed: placed.flatMap((p) => {
      const item = byKey.get(candidateKey(p.kind, p.id));
      return item ? [{ ...p, item }] : [];
    }),
    degradedReason,
    path: source.path,
  };
}

/**
 * The query's words as the terms are read from them (a time it names, such as "last week", taken
 * out and made the window of a full-text search); the text of runSearch's first statement.
 */
export function queryTimeOf(search: Pick<PlannedSearch, 'query' | 'mode'>, now: Date) {
  return search.mode === 'fulltext' ? findQueryTime(search.query, now) : { text: search.query, window: null };
}

type Slot = Omit<PlacedItem, 'item'>;

/** The first top-k, each summary or fact hit followed by its most relevant source messages. */
async function place(
  source: SearchSource,
  search: PlannedSearch,
  ranked: RankedItem[],
  lexemes: string[],
  terms: QueryTerm[],
): Promise<Slot[]> {
  const head = ranked.slice(0, search.topK);
  const parents = search.expand ? head.filter((r) => r.candidate.kind !== 'message') : [];
  const summaryIds = parents.filter((r) => r.candidate.kind === 'summary').map((r) => r.candidate.id);
  const factIds = parents.filter((r) => r.candidate.kind === 'fact').map((r) => r.candidate.id);
  const expansions =
    parents.length > 0 ? await source.expansions(search.scope, summaryIds, factIds, lexemes) : [];
  const byParent = groupExpansions(expansions, terms);
  const expansionRanks = rankedAmong(ranked, byParent);
  const placed: Slot[] = [];
  const seen = new Set<string>();
  const put = (kind: ItemKind, id: string, expandedFrom: string, r: RankedItem | null) => {
    const key = candidateKey(kind, id);
    if (seen.has(key) || placed.length >= search.topK) return;
    seen.add(key);
    placed.push({ kind, id, ranked: r, expandedFrom });
  };
  for (const r of ranked) {
    if (placed.length >= search.topK) break;
    put(r.candidate.kind, r.candidate.id, '', r);
    if (r.candidate.kind === 'message' || !search.expand) continue;
    const ref = candidateKey(r.candidate.kind, r.candidate.id);
    for (const e of byParent.get(ref) ?? []) {
      const key = candidateKey(e.kind, e.id);
      put(e.kind, e.id, ref, expansionRanks.get(key) ?? null);
    }
  }
  return placed;
}

/** The rankings of the expansions that ranked themselves, by "kind:id" (candidates are unique, so one each). */
function rankedAmong(
  ranked: readonly RankedItem[],
  byParent: ReadonlyMap<string, ReadonlyArray<{ kind: ItemKind; id: string }>>,
): Map<string, RankedItem> {
  const wanted = new Set([...byParent.values()].flat().map((e) => candidateKey(e.kind, e.id)));
  const found = new Map<string, RankedItem>();
  if (wanted.size === 0) return found;
  for (const r of ranked) {
    const key = candidateKey(r.candidate.kind, r.candidate.id);
    if (wanted.has(key)) found.set(key, r);
  }
  return found;
}

function groupExpansions(
  rows: ExpansionRow[],
  terms: QueryTerm[],
): Map<string, Array<{ kind: ItemKind; id: string }>> {
  const weight = (matched: number) =>
    terms.reduce((sum, t, i) => (matched & (1 << i) ? sum + t.idf : sum), 0);
  const groups = new Map<string, ExpansionRow[]>();
  for (const row of rows) {
    const ref = `${row.parent_kind}:${row.parent_id}`;
    const group = groups.get(ref);
    if (group) group.push(row);
    else groups.set(ref, [row]);
  }
  return new Map(
    [...groups].map(([ref, group]) => {
      // The first two children in time (ties by id), whatever order the rows came in.
      const children = group
        .filter((r) => r.kind === 'summary' && r.level === 1)
        .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || Number(a.id) - Number(b.id))
        .slice(0, 2);
      const messages = group
        .filter((r) => r.kind === 'message')
        .sort(
          (a, b) =>
            weight(b.matched) - weight(a.matched) ||
            a.created_at.getTime() - b.created_at.getTime() ||
            Number(a.id) - Number(b.id),
        )
        .slice(0, EXPANSIONS_PER_HIT);
      return [ref, [...children, ...messages].map((r) => ({ kind: r.kind, id: String(r.id) }))];
    }),
  );
}

/** Candidates by kind, then id as a number (each id read once, not at every comparison). */
function sortedByKindAndId(candidates: readonly Candidate[]): Candidate[] {
  const keyed = candidates.map((c) => ({ c, id: Number(c.id) }));
  keyed.sort((a, b) => (a.c.kind < b.c.kind ? -1 : a.c.kind > b.c.kind ? 1 : a.id - b.id));
  return keyed.map((k) => k.c);
}

function refsByKind(placed: Slot[]): Record<ItemKind, string[]> {
  const refs: Record<ItemKind, string[]> = { message: [], summary: [], fact: [] };
  for (const p of placed) refs[p.kind].push(p.id);
  return refs;
}
