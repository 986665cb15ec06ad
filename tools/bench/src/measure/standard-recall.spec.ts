import { firstRanks, pickMeasures, rankedByBest, scoresOfRanks, summariseStandard } from './standard-recall';

const relevant = (...items: string[]) => new Set(items);
const standardScores = (ranked: Array<string | null>, items: Set<string>, k: number) =>
  scoresOfRanks(firstRanks(ranked, items), k);

describe('standard retrieval measures', () => {
  it('recall_any is 1 when one relevant item is within k, recall_all only when every one is', () => {
    const ranked = ['x', 'a', 'y', 'z', 'b'];
    expect(standardScores(ranked, relevant('a', 'b'), 2)).toMatchObject({ any: 1, all: 0 });
    expect(standardScores(ranked, relevant('a', 'b'), 5)).toMatchObject({ any: 1, all: 1 });
    expect(standardScores(ranked, relevant('q'), 5)).toEqual({ any: 0, all: 0, ndcg: 0 });
  });

  it('NDCG weighs place 1 and 2 alike and place i by 1/log2 i after, as LongMemEval computes it', () => {
    expect(standardScores(['a'], relevant('a'), 10).ndcg).toBe(1);
    expect(standardScores(['x', 'a'], relevant('a'), 10).ndcg).toBe(1);
    expect(standardScores(['x', 'y', 'z', 'a'], relevant('a'), 10).ndcg).toBeCloseTo(0.5);
    // Two relevant, found at 1 and 4: (1 + 1/2) / (1 + 1).
    expect(standardScores(['a', 'x', 'y', 'b'], relevant('a', 'b'), 10).ndcg).toBeCloseTo(0.75);
  });

  it('the ideal ranking holds at most k relevant items', () => {
    // Three relevant, k 2, both places relevant: perfect.
    expect(standardScores(['a', 'b', 'c'], relevant('a', 'b', 'c'), 2).ndcg).toBe(1);
  });

  it('places that are no item, and an item again, count for nothing', () => {
    expect(standardScores([null, 'a', 'a', null], relevant('a', 'b'), 4)).toEqual({
      any: 1,
      all: 0,
      ndcg: 1 / 2,
    });
  });

  it('refuses a question with nothing relevant: it belongs out of the measure', () => {
    expect(() => standardScores(['a'], relevant(), 5)).toThrow(/without relevant items/);
  });

  it('ranks groups by their best place, each once', () => {
    const sessionOf: Record<string, string> = { t1: 's1', t2: 's2', t3: 's1', t4: 's3' };
    expect(rankedByBest(['t2', 't1', 'other', 't3', 't4'], (t) => sessionOf[t])).toEqual(['s2', 's1', 's3']);
  });

  it('averages each measure over questions, in percent with one decimal', () => {
    const summary = summariseStandard([[1], [3, null], [null]], [1, 5]);
    expect(summary).toMatchObject({ 'any@1': 33.3, 'all@1': 33.3, 'any@5': 66.7, 'all@5': 33.3 });
    expect(pickMeasures(summary, ['any@5', 'ndcg@1'])).toEqual({ 'any@5': 66.7, 'ndcg@1': 33.3 });
  });
});
