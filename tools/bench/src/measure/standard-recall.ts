/**
 * Retrieval measures as the field publishes them (LongMemEval's eval code, used by LoCoMo
 * reports too): per question, over a ranked list of items, `recall_any@k` (1 when at least one
 * relevant item is among the first k), `recall_all@k` (1 when every one is) and `ndcg@k` (binary
 * relevance); each averaged over questions and given in percent with one decimal.
 *
 * NDCG follows that code exactly: DCG = rel₁ + Σ_{i≥2} relᵢ / log₂ i (the first two places
 * weigh the same), the ideal DCG that of every relevant item first.
 */

/** The measures of one question at one k: 0 or 1 for the recalls, 0..1 for NDCG. */
export interface StandardScores {
  readonly any: number;
  readonly all: number;
  readonly ndcg: number;
}

/** Percent (one decimal) of each measure at each k, keyed "any@5", "all@10", "ndcg@10" … */
export type StandardSummary = Record<string, number>;

const discount = (position: number) => (position === 1 ? 1 : 1 / Math.log2(position));

/**
 * The scores of one question from where each relevant item first ranked (1-based; null when
 * it did not rank at all).
 */
export function scoresOfRanks(ranks: ReadonlyArray<number | null>, k: number): StandardScores {
  if (ranks.length === 0) throw new Error('standard scores of a question without relevant items');
  let found = 0;
  let dcg = 0;
  for (const rank of ranks) {
    if (rank === null || rank > k) continue;
    found++;
    dcg += discount(rank);
  }
  let ideal = 0;
  for (let i = 1; i <= Math.min(k, ranks.length); i++) ideal += discount(i);
  return { any: found > 0 ? 1 : 0, all: found === ranks.length ? 1 : 0, ndcg: dcg / ideal };
}

/**
 * Where each relevant item first stands in `ranked` (1-based, null when absent); `ranked` holds
 * each place's item, null for a place that is no item of the measure (a summary among turns).
 */
export function firstRanks(
  ranked: ReadonlyArray<string | null>,
  relevant: ReadonlySet<string>,
): Array<number | null> {
  const first = new Map<string, number>();
  ranked.forEach((item, i) => {
    if (item !== null && relevant.has(item) && !first.has(item)) first.set(item, i + 1);
  });
  return [...relevant].map((item) => first.get(item) ?? null);
}

/**
 * Items ranked by their best place: each item once, at its first appearance (sessions ranked by
 * their best turn). `groupOf` gives a place's item (null: none).
 */
export function rankedByBest<T>(
  places: readonly T[],
  groupOf: (place: T) => string | null | undefined,
): string[] {
  const seen = new Set<string>();
  const order: string[] = [];
  for (const place of places) {
    const group = groupOf(place);
    if (group === null || group === undefined || seen.has(group)) continue;
    seen.add(group);
    order.push(group);
  }
  return order;
}

const percent1 = (share: number) => Math.round(share * 1000) / 10;

/** Every measure at each of `ks`, averaged over questions given as the ranks of their relevant items (all zeros for none). */
export function summariseStandard(
  questions: ReadonlyArray<ReadonlyArray<number | null>>,
  ks: readonly number[],
): StandardSummary {
  const summary: StandardSummary = {};
  for (const k of ks) {
    let any = 0;
    let all = 0;
    let ndcg = 0;
    for (const q of questions) {
      const s = scoresOfRanks(q, k);
      any += s.any;
      all += s.all;
      ndcg += s.ndcg;
    }
    const n = Math.max(1, questions.length);
    summary[`any@${k}`] = percent1(any / n);
    summary[`all@${k}`] = percent1(all / n);
    summary[`ndcg@${k}`] = percent1(ndcg / n);
  }
  return summary;
}

/** The named measures of a summary, in the order given (for a headline). */
export function pickMeasures(summary: StandardSummary, names: readonly string[]): StandardSummary {
  return Object.fromEntries(names.map((name) => [name, summary[name] ?? 0]));
}
