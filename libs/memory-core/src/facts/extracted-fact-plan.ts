import type { FactCategory } from './fact-kinds';

/** Cosine similarity at or above which an extracted fact is the same fact said again (updated in place), by default. */
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

/** The agent's closed fact nearest to a new one, and when its validity ended. */
export interface NearestClosedFact extends NearestFact {
  readonly validTo: Date;
}

/** What becomes of one extracted fact. */
export type ExtractedFactPlan =
  | { readonly kind: 'update'; readonly factId: string }
  | { readonly kind: 'supersede'; readonly factId: string }
  | { readonly kind: 'insert' }
  | { readonly kind: 'skip'; readonly factId: string };

/**
 * The write an extracted fact calls for: the same fact again (≥ `sameFact`, 0.90 unless configured) is updated in place;
 * a correction close to an older fact closes that one's validity and links the two (nothing
 * is erased); a repeat of a closed fact stated before it was closed is left out (the next
 * turns' windows still hold the old statement); anything else is a new fact. Only corrections supersede: a model's facts
 * carry no other sign of contradiction, and two merely similar facts may both be true.
 */
export function planExtractedFact(
  fact: { readonly category: FactCategory; readonly statedAt: Date },
  nearest: NearestFact | null,
  nearestClosed: NearestClosedFact | null = null,
  sameFact = SAME_FACT_SIMILARITY,
): ExtractedFactPlan {
  const category = fact.category;
  if (nearest && nearest.similarity >= sameFact) return { kind: 'update', factId: nearest.id };
  // Windows overlap: a statement older than the closing of the fact it repeats must not reopen it.
  if (
    nearestClosed &&
    nearestClosed.similarity >= sameFact &&
    fact.statedAt.getTime() <= nearestClosed.validTo.getTime()
  ) {
    return { kind: 'skip', factId: nearestClosed.id };
  }
  if (nearest && category === 'correction' && nearest.similarity >= SUPERSEDED_SIMILARITY)
    return { kind: 'supersede', factId: nearest.id };
  return { kind: 'insert' };
}
