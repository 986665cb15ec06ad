import { distinctWords } from '../text/words';

/**
 * How much of a candidate fact an existing fact already says: the share of the
 * candidate's distinct words that the existing fact contains (0..1).
 * "User prefers dark mode" against "User prefers dark mode in every editor" is 1:
 * nothing new. The reverse is 4/7: the longer fact adds something.
 */
export function wordOverlap(candidate: string, existing: string): number {
  const mine = distinctWords(candidate);
  if (mine.size === 0) return 0;
  const theirs = distinctWords(existing);
  let shared = 0;
  for (const word of mine) if (theirs.has(word)) shared++;
  return shared / mine.size;
}

/** The first existing fact that overlaps the candidate by more than the threshold. */
export function findOverlapping<T extends { content: string }>(
  candidate: string,
  existing: readonly T[],
  threshold: number,
): T | undefined {
  return existing.find((fact) => wordOverlap(candidate, fact.content) > threshold);
}
