import type { HitRef } from '../run/ask-questions';
import { evidenceRanks, recallAt, summariseRecall } from './recall';

const turnOf: Record<string, string> = { m1: 'D1:1', m2: 'D1:2', m3: 'D1:3', m4: 'D2:1', m5: 'D1:2' };
const lookup = (id: string) => turnOf[id];
const message = (id: string): HitRef => ({ id, kind: 'message' });

describe('LoCoMo recall', () => {
  it('ranks each evidence turn by the first message hit of that turn', () => {
    const hits = [message('m4'), message('m2'), message('m5'), message('m1')];
    expect(evidenceRanks(['D1:1', 'D1:2', 'D9:9'], hits, lookup)).toEqual([4, 2, null]);
  });

  it('counts only message hits: a summary or fact takes a place but finds nothing itself', () => {
    const hits = [
      { id: 'm1', kind: 'summary' },
      { id: 'm2', kind: 'fact' },
      message('m3'),
      { id: 's9', kind: 'summary' },
      message('m1'),
    ];
    expect(evidenceRanks(['D1:1', 'D1:2', 'D1:3'], hits, lookup)).toEqual([5, null, 3]);
  });

  it('ignores messages that are not a turn of the conversation', () => {
    expect(evidenceRanks(['D1:1'], [message('other'), message('m1')], lookup)).toEqual([2]);
  });

  it('recall@k is the share of evidence turns within the first k', () => {
    const ranks = [1, 6, null, 30];
    expect(recallAt(ranks, 5)).toBe(0.25);
    expect(recallAt(ranks, 10)).toBe(0.5);
    expect(recallAt(ranks, 25)).toBe(0.5);
    expect(recallAt(ranks, 50)).toBe(0.75);
    expect(() => recallAt([], 5)).toThrow(/without evidence/);
  });

  it('averages over questions (not over evidence turns), overall and per category, in percent with one decimal', () => {
    const report = summariseRecall([
      { category: 4, ranks: [1] }, // 1 at every k
      { category: 4, ranks: [3, null, null] }, // 1/3 at every k
      { category: 2, ranks: [7, 40] }, // 0, 0.5, 0.5, 1
    ]);
    expect(report.overall).toEqual({
      questions: 3,
      recall: { '5': 44.4, '10': 61.1, '25': 61.1, '50': 77.8 },
    });
    expect(Object.keys(report.byCategory)).toEqual(['2', '4']);
    expect(report.byCategory['4']).toEqual({
      questions: 2,
      recall: { '5': 66.7, '10': 66.7, '25': 66.7, '50': 66.7 },
    });
    expect(report.byCategory['2']).toEqual({
      questions: 1,
      recall: { '5': 0, '10': 50, '25': 50, '50': 100 },
    });
  });

  it('reports no questions as zero, not NaN', () => {
    expect(summariseRecall([])).toEqual({
      overall: { questions: 0, recall: { '5': 0, '10': 0, '25': 0, '50': 0 } },
      byCategory: {},
    });
  });
});
