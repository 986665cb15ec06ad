import { distinctWords } from '../text/words';
import { findOverlapping } from './word-overlap';

/** An open fact (validity not closed) as overlap dedup sees it. */
export interface OpenFact {
  readonly id: string;
  readonly content: string;
  /** null: sticky, never expires. */
  readonly expiresAt: Date | null;
}

/**
 * A Postgres tsquery (`english`) matching any fact that shares a word with one of the
 * candidates: it narrows the open facts to those that could overlap at all. Only letters
 * and digits of each word are kept, so the query cannot be malformed. null when the
 * candidates hold no word.
 */
export function anyWordQuery(candidates: readonly string[]): string | null {
  const lexemes = new Set<string>();
  for (const candidate of candidates) {
    for (const word of distinctWords(candidate)) {
      const safe = word.replace(/[^\p{L}\p{N}]/gu, '');
      if (safe) lexemes.add(`'${safe}'`);
    }
  }
  return lexemes.size === 0 ? null : [...lexemes].join(' | ');
}

/**
 * The open fact that already says what the candidate says: among the facts in force
 * when the candidate was stated (not expired by then), the first one containing more
 * than `threshold` of the candidate's distinct words. The candidate is then not stored
 * again; the caller renews that fact instead.
 */
export function findDuplicateFact<T extends OpenFact>(
  candidate: string,
  statedAt: Date,
  open: readonly T[],
  threshold: number,
): T | undefined {
  const inForce = open.filter((fact) => fact.expiresAt === null || fact.expiresAt > statedAt);
  return findOverlapping(candidate, inForce, threshold);
}
