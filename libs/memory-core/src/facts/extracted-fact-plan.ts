import type { FactCategory } from './fact-kinds';

/** Cosine similarity at or above which an extracted fact is the same fact said again (updated in place). */
export const SAME_FACT_SIMILARITY = 0.9;

/**
 * Cosine similarity at or above which a correction is about the same thing as the older
 * fact it is nearest to, and so replaces it. Below SAME_FACT_SIMILARITY: a correction that
 * close would be the same sentence, merely restated.
 */
export const SUPERSEDED_SIMILARITY = 0.75;

/** The agent's open fact nearest to a new one, by cosine similarity of their vectors. */
export interface NearestFact {
  readonly id: string;
  readonly similarity: number;
}

/** What becomes of one extracted fact. */
export type ExtractedFactPlan =
  | { readonly kind: 'update'; readonly factId: string }
  | { readonly kind: 'supersede'; readonly factId: string }
  | { readonly kind: 'insert' };

/**
 * The write an extracted fact calls for: the same fact again (≥ 0.90) is updated in place;
 * a correction close to an older fact closes that one's validity and links the two (nothing
 * is erased); anything else is a new fact. Only corrections supersede: a model's facts
 * carry no other sign of contradiction, and two merely similar facts may both be true.
 */
export function planExtractedFact(category: FactCategory, nearest: NearestFact | null): ExtractedFactPlan {
  if (nearest && nearest.similarity >= SAME_FACT_SIMILARITY) return { kind: 'update', factId: nearest.id };
  if (nearest && category === 'correction' && nearest.similarity >= SUPERSEDED_SIMILARITY) return { kind: 'supersede', factId: nearest.id };
  return { kind: 'insert' };
}
