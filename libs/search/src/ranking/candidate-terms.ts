import { CANDIDATE_BUDGET } from '../plan/search-plan';

export interface CountedTerm {
  readonly lexeme: string;
  /** How many messages contain it (counted up to a cap). */
  readonly df: number;
}

/**
 * The terms that pick candidates: the rarest first, while the messages they can
 * match add up to at most the budget (always at least the rarest). A term common
 * enough to fall outside adds little to any score, and scores what the rare terms
 * found anyway; this bounds the rows a search reads whatever the query.
 */
export function chooseCandidateTerms(terms: readonly CountedTerm[], budget = CANDIDATE_BUDGET): string[] {
  // A term no message contains costs nothing there, and may still find summaries and facts.
  const sorted = [...terms].sort((a, b) => a.df - b.df || a.lexeme.localeCompare(b.lexeme));
  const chosen: string[] = [];
  let total = 0;
  for (const t of sorted) {
    if (total > 0 && total + t.df > budget) break;
    chosen.push(t.lexeme);
    total += t.df;
  }
  return chosen;
}
