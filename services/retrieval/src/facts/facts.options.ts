/** How memory_save deduplicates: the same rule and threshold as tagged facts at ingest. */
export interface FactsOptions {
  /** An open fact holding more than this share of a new fact's distinct words already says it. */
  readonly overlapThreshold: number;
}

export const FACTS_OPTIONS = Symbol('FACTS_OPTIONS');
