import type { FUSIONS } from '@engram/contracts';
import type { TimeWindow } from '../query/query-time';
import { NEIGHBOUR_WEIGHTS, windowScore, type WindowPart } from './bm25';
import type { QueryRole } from '../query/query-intent';
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
  /** Whose messages the query asks about (roleOfQuery): "my …" the user's, "you told me" the assistant's. */
  readonly role?: QueryRole | null;
  /** The query asks for several things (asksForSeveral): the first places are spread over conversations. */
  readonly several?: boolean;
}

/**
 * What naming the author of a message is worth, in BM25 units (the idf of one of two speakers). A
 * question about Caroline is answered in Caroline's words. More (1.5–3) gained up to 0.8 any@10
 * on LoCoMo's categories 1–4 but cost adversarial questions, which name the wrong speaker on
 * purpose, 1.7–2.5 points of any@5: it stays.
 */
export const AUTHOR_MATCH = 0.7;
/**
 * What a message of the role the query asks about is worth, in BM25 units: the user's own words
 * hold what they said of themselves ("my previous occupation"), the assistant's what it suggested.
 * Chosen by cross-validation on LongMemEval (turn any@5 +10 points); LoCoMo's speakers share one
 * role, so it changes nothing there.
 */
export const ROLE_MATCH = 5;
/**
 * For a query asking for several things, each hit already placed from a conversation cuts the
 * next one's score from it by this share (MMR-like, over the first SPREAD_PLACES). Chosen on both
 * datasets together (0.03–0.2 tried): LoCoMo multi-hop all@10 +3, LongMemEval turn all@10 +3.4,
 * every other category within a point.
 */
export const CONVERSATION_SPREAD = 0.05;
/** How many first places the spread reorders; the rest keep their order. */
export const SPREAD_PLACES = 50;
/** How much each neighbour's similarity to the query adds to a message's own. */
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
 * author field, so the other speaker greeting Caroline does not outrank Caroline. A query that
 * says whose words it wants ("my …", "you suggested") favours messages of that role.
 * Semantic is the cosine with the query, averaged a little with the turns of the same window.
 */
export function rankCandidates(input: RankingInput): RankedItem[] {
  const messages = namedNeighbours(input.candidates);
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
  // Who said it, when the query names the author or says whose words it asks about. A fact is
  // what the user said of themselves, distilled: it answers "my …" as their own turns do.
  const speaker = (c: Candidate) =>
    authoredBy.get(c.author)! +
    (input.role && (c.kind === 'fact' ? 'user' : c.role) === input.role ? ROLE_MATCH : 0);
  // A candidate without neighbours is a window of one: scored through one reused part, not a new array each.
  const alone = { matched: 0, length: 0, weight: 1 };
  const window = [alone];
  const lexical = eligible.map((c) => {
    if (c.lexicalScore !== undefined) return c.lexicalScore;
    if (!c.neighbours) {
      alone.matched = c.matched;
      alone.length = c.length;
      return windowScore(window, idfs, nameTerms, input.averageLength) + speaker(c);
    }
    const parts: WindowPart[] = [{ matched: c.matched, length: c.length, weight: 1 }];
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
    return windowScore(parts, idfs, nameTerms, input.averageLength) + speaker(c);
  });
  let maxLexical = 0;
  for (const score of lexical) maxLexical = Math.max(maxLexical, score);
  // Scores in typed arrays until the ranked items are made: a double in an object field or
  // returned by a comparator is a heap allocation, and these were most of a search's garbage.
  const n = eligible.length;
  const fulltext = new Float64Array(n);
  const semantic = new Float64Array(n);
  const timeMatch = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = eligible[i]!;
    semantic[i] = semanticWithNeighbours(c, neighbourOf);
    fulltext[i] = maxLexical > 0 ? lexical[i]! / maxLexical : 0;
    const at = c.createdAt.getTime();
    timeMatch[i] =
      input.window && at >= input.window.from.getTime() && at <= input.window.to.getTime() ? 1 : 0;
  }
  const fused =
    input.fusion === 'rrf'
      ? reciprocalRankFusion([
          Array.from(fulltext, (f, i) => (f > 0 ? f + timeMatch[i]! : null)),
          eligible.map((c, i) => (c.cosine !== null ? semantic[i]! : null)),
        ])
      : null;
  const ranked: RankedItem[] = eligible.map((c, i) => {
    const temporal = temporalScore(c.createdAt, c.lastAccessedAt, c.accessCount, input.now);
    const importance = importanceScore(c.kind, c.importance);
    const signals: Signals = {
      fulltext: fulltext[i]!,
      semantic: semantic[i]!,
      temporal,
      importance,
      timeMatch: timeMatch[i]!,
      fused: fused
        ? fused[i]!
        : SIGNAL_WEIGHTS.fulltext * fulltext[i]! +
          SIGNAL_WEIGHTS.semantic * semantic[i]! +
          SIGNAL_WEIGHTS.temporal * temporal +
          SIGNAL_WEIGHTS.importance * importance +
          TIME_MATCH_WEIGHT * timeMatch[i]!,
    };
    return { candidate: c, signals };
  });
  ranked.sort(
    (a, b) =>
      descending(a.signals.fused, b.signals.fused) ||
      descending(a.candidate.createdAt.getTime(), b.candidate.createdAt.getTime()) ||
      a.candidate.id.localeCompare(b.candidate.id),
  );
  // RRF's scores are ranks, not relevance a share can be cut from.
  return input.several && input.fusion === 'weighted' ? spreadOverConversations(ranked) : ranked;
}

/**
 * The first SPREAD_PLACES placed greedily, each item's score cut by CONVERSATION_SPREAD for every
 * item of its conversation already placed; the rest after them in their order. Scores are sorted
 * and cuts only lower them, so the scan for the best stops at the first score below the best cut one.
 */
function spreadOverConversations(ranked: RankedItem[]): RankedItem[] {
  const placed: RankedItem[] = [];
  const taken = new Uint8Array(ranked.length);
  const fromConversation = new Map<string | null, number>();
  for (let place = 0; place < Math.min(SPREAD_PLACES, ranked.length); place++) {
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < ranked.length; i++) {
      if (taken[i]) continue;
      const r = ranked[i]!;
      if (r.signals.fused <= bestScore) break;
      const before = fromConversation.get(r.candidate.conversationId) ?? 0;
      const score = r.signals.fused * Math.max(0, 1 - CONVERSATION_SPREAD * before);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    if (best < 0) break;
    taken[best] = 1;
    const r = ranked[best]!;
    placed.push(r);
    fromConversation.set(
      r.candidate.conversationId,
      (fromConversation.get(r.candidate.conversationId) ?? 0) + 1,
    );
  }
  ranked.forEach((r, i) => {
    if (!taken[i]) placed.push(r);
  });
  return placed;
}

/**
 * The cosine as a signal: a message's own, averaged a little with each turn of its window (two
 * before and two after, the turns full text reads too). What a turn is about is often said a turn
 * or two away ("The kids loved it!" after "we made pottery … how'd they like it?"), on either side.
 */
function semanticWithNeighbours(
  c: Candidate,
  neighbourOf: (c: Candidate, slot: number) => Candidate | null | undefined,
): number {
  const own = semanticScore(c.cosine);
  if (!c.neighbours || c.cosine === null) return own;
  let sum = own;
  let weight = 1;
  for (let slot = 0; slot < OFFSETS.length; slot++) {
    const n = neighbourOf(c, slot);
    if (n && n.cosine !== null) {
      sum += NEIGHBOUR_SEMANTIC_WEIGHT * semanticScore(n.cosine);
      weight += NEIGHBOUR_SEMANTIC_WEIGHT;
    }
  }
  return sum / weight;
}

/**
 * A comparator's answer for `a` before `b` when larger (-1, 1, or 0 when equal or either is
 * NaN, as `b - a` sorts): a small integer, where a difference of doubles would be allocated.
 */
function descending(a: number, b: number): number {
  return a > b ? -1 : a < b ? 1 : 0;
}

/**
 * The message candidates that some candidate names as a neighbour, by id (the last of equal
 * ids kept): the others are never looked up, and a map of all of them cost more.
 */
function namedNeighbours(candidates: readonly Candidate[]): Map<string, Candidate> {
  const named = new Set<string>();
  for (const c of candidates) for (const id of c.neighbours ?? []) if (id !== null) named.add(id);
  const byId = new Map<string, Candidate>();
  if (named.size === 0) return byId;
  for (const c of candidates) if (c.kind === 'message' && named.has(c.id)) byId.set(c.id, c);
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
    const order: number[] = [];
    list.forEach((score, i) => {
      if (score !== null) order.push(i);
    });
    order.sort((a, b) => descending(list[a]!, list[b]!));
    order.forEach((i, rank) => (fused[i]! += 1 / (k + rank + 1)));
  }
  return fused;
}
