import {
  locomoHeadline,
  locomoStandard,
  renderLocomoStandardTable,
  renderRecallTable,
  standardTargetsMet,
  targetsMet,
} from './locomo-report';
import type { RecallReport } from './recall';

const report: RecallReport = {
  overall: { questions: 3, recall: { '5': 44.4, '10': 61.1, '25': 61.1, '50': 77.8 } },
  byCategory: {
    '2': { questions: 1, recall: { '5': 0, '10': 50, '25': 50, '50': 100 } },
    '4': { questions: 2, recall: { '5': 66.7, '10': 66.7, '25': 66.7, '50': 66.7 } },
  },
};

describe('LoCoMo report', () => {
  it('--json prints exactly questions, recall, byCategory, the standard measures and the search latency', () => {
    const standard = locomoStandard([
      { category: 2, ranks: [1, 12] },
      { category: 5, ranks: [null] },
    ]);
    expect(JSON.stringify(locomoHeadline(report, standard, { p50Ms: 8.04, p95Ms: 12.36 }))).toBe(
      '{"questions":3,"recall":{"5":44.4,"10":61.1,"25":61.1,"50":77.8},' +
        '"byCategory":{"2":{"questions":1,"recall":{"5":0,"10":50,"25":50,"50":100}},"4":{"questions":2,"recall":{"5":66.7,"10":66.7,"25":66.7,"50":66.7}}},' +
        '"standard":{"all":{"any@5":50,"any@10":50,"all@5":0,"all@10":0,"ndcg@10":25},' +
        '"categories1to4":{"any@5":100,"any@10":100,"all@5":0,"all@10":0,"ndcg@10":50}},' +
        '"searchP50Ms":8,"searchP95Ms":12.4}',
    );
  });

  it('leaves adversarial questions out of categories 1–4 and judges the targets there and on temporal ones', () => {
    const standard = locomoStandard([
      { category: 1, ranks: [3, 9] },
      { category: 2, ranks: [1] },
      { category: 5, ranks: [null] },
    ]);
    expect(standard.categories1to4).toMatchObject({ 'any@10': 100, 'all@10': 100 });
    expect(standard.all).toMatchObject({ 'any@10': 66.7 });
    expect(standardTargetsMet(standard)).toBe(true);
    expect(standardTargetsMet(locomoStandard([{ category: 2, ranks: [11] }]))).toBe(false);
    const table = renderLocomoStandardTable(standard, { all: 3, '1to4': 2, '1': 1, '2': 1, '5': 1 });
    expect(table).toMatch(/Engram, categories 1–4\s+100\.0\s+100\.0\s+50\.0\s+100\.0\s+\d+\.\d\s+2/);
    expect(table).toMatch(/uteke 0\.17.*\s84\.0\s+93\.9\s+71\.6\s+85\.0/);
    expect(table).toMatch(/targets, categories 1–4.*: met$/m);
  });

  it('meets the targets only with R@5 ≥ 72 and R@10 ≥ 80', () => {
    expect(targetsMet({ '5': 72, '10': 80, '25': 0, '50': 0 })).toBe(true);
    expect(targetsMet({ '5': 71.9, '10': 90, '25': 0, '50': 0 })).toBe(false);
    expect(targetsMet({ '5': 90, '10': 79.9, '25': 0, '50': 0 })).toBe(false);
  });

  it('tabulates Engram per category beside the reference points and the targets', () => {
    const lines = renderRecallTable(report).split('\n');
    expect(lines[0]).toMatch(/^recall \(% of evidence turns\)\s+R@5\s+R@10\s+R@25\s+R@50\s+questions$/);
    expect(lines[1]).toMatch(/^Engram, all categories\s+44\.4\s+61\.1\s+61\.1\s+77\.8\s+3\s+targets MISSED$/);
    expect(lines[2]).toMatch(/^ {2}2 temporal\s+0\.0\s+50\.0\s+50\.0\s+100\.0\s+1$/);
    expect(lines[3]).toMatch(/^ {2}4 single-hop\s+66\.7\s+66\.7\s+66\.7\s+66\.7\s+2$/);
    const text = lines.join('\n');
    expect(text).toMatch(/DRAGON dense retriever.*\s56\.7\s+66\.2\s+76\.7\s+82\.7/);
    expect(text).toMatch(/plain BM25 \(this split\)\s+53\.5\s+60\.0\s+67\.5\s+71\.7/);
    expect(text).toMatch(
      /BM25 \+ stemming \+ neighbouring turns \(this split\)\s+64\.5\s+72\.3\s+80\.5\s+84\.8/,
    );
    expect(text).toMatch(/targets\s+≥ 72\s+≥ 80/);
    // the columns line up
    const r5 = lines[0]!.indexOf('R@5') + 'R@5'.length;
    for (const line of lines.filter((l) => /\d\.\d/.test(l))) expect(line[r5 - 1]).toMatch(/\d/);
  });
});
