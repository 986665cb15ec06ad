import type { FUSIONS } from '@engram/contracts';
import type { TimeWindow } from '../query/query-time';
import { NEIGHBOUR_WEIGHTS, windowScore, type WindowPart } from './bm25';
import type { Candidate } from './candidate';
import {
  importanceScore,
  RRF_K,
  semanticScore,
  SIGNAL_WEIGHTS,
  temporalScore,
  TIME_MATCH_WEIGHT,
} from './signals';

/** A stemmed query term, the words of the query it came from, and its idf in the tenant's memory. */
export interface QueryTerm {
  readonly lexeme: string;
  readonly words: readonly string[];
  readonly idf: number;
}

export type Fusion = (typeof FUSIONS)[number];

export interface Signals {
  readonly fulltext: number;
  readonly semantic: number;
  readonly temporal: number;
  readonly importance: number;
  /** 1 when the item falls in the time the query names. */
  readonly timeMatch: number;
  readonly fused: number;
}

export interface RankedItem {
  readonly candidate: Candidate;
  readonly signals: Signals;
}

export interface RankingInput {
  readonly terms: readonly QueryTerm[];
  readonly candidates: readonly Candidate[];
  /** Average message length in tokens in the tenant's memory. */
  readonly averageLength: number;
  readonly window: TimeWindow | null;
  readonly fusion: Fusion;
  readonly now: Date;
}

/** What naming the author of a message is worth, in BM25 units (the idf of one of two speakers). */
export const AUTHOR_MATCH = 0.7;
/** How much the neighbours' similarity to the query adds to a message's own. */
const NEIGHBOUR_SEMANTIC_WEIGHT = 0.3;
/** Offsets of Candidate.neighbours. */
const OFFSETS = [-2, -1, 1, 2] as const;

const wordsOf = (name: string | null): string[] =>
  name
    ? name
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)
    : [];

/**
 * Ranks the eligible candidates, best first, with each signal.
 *
 * Full text is BM25 over each message and its surrounding turns (see bm25.ts). A query
 * word that names an author of the candidates ("What did Caroline research?") is read
 * as asking about what that author said, not as a word to find: it scores through the
 * author field, so the other speaker greeting Caroline does not outrank Caroline.
 * Semantic is the cosine with the query, averaged a little with the adjacent turns'.
 */
export function rankCandidates(input: RankingInput): RankedItem[] {
  const messages = messagesById(input.candidates);
  // Authors are few (the speakers of a tenant): their words are found once per author, not per candidate.
  const authorWordsOf = new Map<string | null, string[]>();
  for (const c of input.candidates)
    if (!authorWordsOf.has(c.author)) authorWordsOf.set(c.author, wordsOf(c.author));
  const authorWords = new Set([...authorWordsOf.values()].flat());
  const idfs = input.terms.map((t) => t.idf);
  let nameTerms = 0;
  const nameWords = new Set<string>();
  input.terms.forEach((t, i) => {
    const named = t.words.filter((w) => authorWords.has(w));
    if (named.length > 0) {
      nameTerms |= 1 << i;
      named.forEach((w) => nameWords.add(w));
    }
  });
  const authoredBy = new Map<string | null, number>();
  for (const [author, words] of authorWordsOf)
    authoredBy.set(author, words.some((w) => nameWords.has(w)) ? AUTHOR_MATCH : 0);
  const neighbourOf = (c: Candidate, slot: number): Candidate | null | undefined => {
    const id = c.neighbours?.[slot];
    if (id === undefined) return undefined;
    return id === null ? null : messages.get(id);
  };
  const eligible = input.candidates.filter((c) => c.eligible);
  const lexical = eligible.map((c) => {
    if (c.lexicalScore !== undefined) return c.lexicalScore;
    const parts: WindowPart[] = [{ matched: c.matched, length: c.length, weight: 1 }];
    if (c.neighbours) {
      OFFSETS.forEach((offset, slot) => {
        const n = neighbourOf(c, slot);
        if (n === null) return;
        const weight =
          Math.abs(offset) === 2
            ? NEIGHBOUR_WEIGHTS.second
            : offset === -1 && n?.asks
              ? NEIGHBOUR_WEIGHTS.precedingQuestion
              : NEIGHBOUR_WEIGHTS.adjacent;
        // A neighbour that was not read contributes nothing but an average length.
        parts.push(
          n
            ? { matched: n.matched, length: n.length, weight }
            : { matched: 0, length: input.averageLength, weight },
        );
      });
    }
    return windowScore(parts, idfs, nameTerms, input.averageLength) + authoredBy.get(c.author)!;
  });
  let maxLexical = 0;
  for (const score of lexical) maxLexical = Math.max(maxLexical, score);
  const scored = eligible.map((c, i) => {
    let semantic = semanticScore(c.cosine);
    if (c.neighbours && c.cosine !== null) {
      let sum = semantic;
      let weight = 1;
      for (const slot of [1, 2]) {
        const n = neighbourOf(c, slot);
        if (n && n.cosine !== null) {
          sum += NEIGHBOUR_SEMANTIC_WEIGHT * semanticScore(n.cosine);
          weight += NEIGHBOUR_SEMANTIC_WEIGHT;
        }
      }
      semantic = sum / weight;
    }
    const fulltext = maxLexical > 0 ? lexical[i]! / maxLexical : 0;
    const at = c.createdAt.getTime();
    const timeMatch =
      input.window && at >= input.window.from.getTime() && at <= input.window.to.getTime() ? 1 : 0;
    // Mutable until fused is set below (one object per candidate, not a copy).
    const signals: { -readonly [K in keyof Signals]: Signals[K] } = {
      fulltext,
      semantic,
      temporal: temporalScore(c.createdAt, c.lastAccessedAt, c.accessCount, input.now),
      importance: importanceScore(c.kind, c.importance),
      timeMatch,
      fused: 0,
    };
    return { candidate: c, signals };
  });
  const fused =
    input.fusion === 'rrf'
      ? reciprocalRankFusion([
          scored.map((s) => (s.signals.fulltext > 0 ? s.signals.fulltext + s.signals.timeMatch : null)),
          scored.map((s) => (s.candidate.cosine !== null ? s.signals.semantic : null)),
        ])
      : scored.map(
          ({ signals: s }) =>
            SIGNAL_WEIGHTS.fulltext * s.fulltext +
            SIGNAL_WEIGHTS.semantic * s.semantic +
            SIGNAL_WEIGHTS.temporal * s.temporal +
            SIGNAL_WEIGHTS.importance * s.importance +
            TIME_MATCH_WEIGHT * s.timeMatch,
        );
  scored.forEach((s, i) => (s.signals.fused = fused[i]!));
  return scored.sort(
    (a, b) =>
      b.signals.fused - a.signals.fused ||
      b.candidate.createdAt.getTime() - a.candidate.createdAt.getTime() ||
      a.candidate.id.localeCompare(b.candidate.id),
  );
}

/** The message candidates by id (the neighbours a candidate names are messages), the last of equal ids kept. */
function messagesById(candidates: readonly Candidate[]): Map<string, Candidate> {
  const byId = new Map<string, Candidate>();
  for (const c of candidates) if (c.kind === 'message') byId.set(c.id, c);
  return byId;
}

/**
 * Reciprocal Rank Fusion (k = 60) of ranked lists given as one score per item (null:
 * not in that list): Σ 1 / (k + rank).
 */
export function reciprocalRankFusion(
  lists: ReadonlyArray<ReadonlyArray<number | null>>,
  k = RRF_K,
): number[] {
  const length = lists[0]?.length ?? 0;
  const fused = new Array<number>(length).fill(0);
  for (const list of lists) {
    const order = list
      .map((score, i) => ({ score, i }))
      .filter((e): e is { score: number; i: number } => e.score !== null)
      .sort((a, b) => b.score - a.score);
    order.forEach((e, rank) => (fused[e.i]! += 1 / (k + rank + 1)));
  }
  return fused;
}
