import type { HitRef } from '../run/ask-questions';

/**
 * Turn-level recall@k as the dataset's README defines it: the share of a question's
 * evidence turns found among the first k hits, averaged over questions.
 *
 * Only hits of kind "message" count. A summary or fact hit still takes its place among the
 * k, but counts for the turns it was made from only through the source messages it was
 * expanded to, which appear as message hits of their own within the same k.
 */

export const RECALL_KS = [5, 10, 25, 50] as const;
export type RecallK = (typeof RECALL_KS)[number];
/** Percent (one decimal) by k, keyed "5", "10", "25", "50". */
export type RecallByK = Record<`${RecallK}`, number>;

/**
 * For each evidence turn, the 1-based position of the first hit that is a message of that
 * turn (null when none is). `turnOf` maps a message id to its turn id (undefined when the
 * message is not a turn of the question's conversation).
 */
export function evidenceRanks(
  evidence: readonly string[],
  hits: readonly HitRef[],
  turnOf: (messageId: string) => string | undefined,
): Array<number | null> {
  const firstRank = new Map<string, number>();
  hits.forEach((hit, index) => {
    if (hit.kind !== 'message') return;
    const turn = turnOf(hit.id);
    if (turn !== undefined && !firstRank.has(turn)) firstRank.set(turn, index + 1);
  });
  return evidence.map((turn) => firstRank.get(turn) ?? null);
}

/** The share (0..1) of evidence turns ranked within the first k. */
export function recallAt(ranks: ReadonlyArray<number | null>, k: number): number {
  if (ranks.length === 0) throw new Error('recall of a question without evidence');
  return ranks.filter((r) => r !== null && r <= k).length / ranks.length;
}

export interface ScoredQuestion {
  readonly category: number;
  readonly ranks: ReadonlyArray<number | null>;
}

export interface RecallSummary {
  readonly questions: number;
  readonly recall: RecallByK;
}

export interface RecallReport {
  readonly overall: RecallSummary;
  /** Per category ("1" … "5"), only the categories that have questions. */
  readonly byCategory: Record<string, RecallSummary>;
}

const percent1 = (share: number) => Math.round(share * 1000) / 10;

function summarise(questions: readonly ScoredQuestion[]): RecallSummary {
  const recall = {} as Record<string, number>;
  for (const k of RECALL_KS) {
    const sum = questions.reduce((total, q) => total + recallAt(q.ranks, k), 0);
    recall[String(k)] = questions.length ? percent1(sum / questions.length) : 0;
  }
  return { questions: questions.length, recall: recall as RecallByK };
}

/** Mean recall@k over every question, and per category (in category order). */
export function summariseRecall(questions: readonly ScoredQuestion[]): RecallReport {
  const categories = [...new Set(questions.map((q) => q.category))].sort((a, b) => a - b);
  return {
    overall: summarise(questions),
    byCategory: Object.fromEntries(
      categories.map((c) => [String(c), summarise(questions.filter((q) => q.category === c))]),
    ),
  };
}
