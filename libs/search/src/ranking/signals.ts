import type { ItemKind } from './candidate';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The weighted relevance: full text 0.3, semantic 0.3, temporal 0.01, importance 0.1. Recency
 * only breaks near-ties: a memory is not less relevant for being old, and at 0.3 it buried the
 * answer under last week's small talk once "now" came close to the conversation (as of its last
 * session, LoCoMo's any@10 fell from 85 to 61). Cross-validation over LoCoMo and LongMemEval
 * asked as of their own dates put 0 to 0.1 within a point of each other, 0.02 first; 0.01 scores
 * the same and keeps LoCoMo's multi-hop questions within a point of before (0.02 cost them 1.4).
 */
export const SIGNAL_WEIGHTS = { fulltext: 0.3, semantic: 0.3, temporal: 0.01, importance: 0.1 } as const;
/** Added when the item falls in the time the query names ("on 3 June"). */
export const TIME_MATCH_WEIGHT = 0.2;
/** Reciprocal Rank Fusion constant. */
export const RRF_K = 60;

/**
 * Memory that is used stays fresh: e^(−0.05 · days since last access) · (1 + 0.02 · accesses),
 * where an item never accessed counts from when it was made.
 */
export function temporalScore(
  createdAt: Date,
  lastAccessedAt: Date | null,
  accessCount: number,
  now: Date,
): number {
  const since = (lastAccessedAt ?? createdAt).getTime();
  const days = Math.max(0, (now.getTime() - since) / DAY_MS);
  return Math.exp(-0.05 * days) * (1 + 0.02 * Math.max(0, accessCount));
}

/**
 * How much an item matters regardless of the query. A fact carries its own importance
 * (1–10; by default correction 9, preference 8, fact 6, task 5 …); a message or a summary
 * is neutral.
 */
export function importanceScore(kind: ItemKind, importance: number | null): number {
  if (kind === 'fact' && importance !== null) return Math.min(10, Math.max(1, importance)) / 10;
  return 0.5;
}

/** Cosine similarity as a signal: unrelated or opposite is simply no evidence. */
export function semanticScore(cosine: number | null): number {
  return cosine === null || !Number.isFinite(cosine) ? 0 : Math.max(0, Math.min(1, cosine));
}
