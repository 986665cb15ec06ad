import { locomoHeadline, renderRecallTable, targetsMet } from './locomo-report';
import type { RecallReport } from './recall';

const report: RecallReport = {
  overall: { questions: 3, recall: { '5': 44.4, '10': 61.1, '25': 61.1, '50': 77.8 } },
  byCategory: {
    '2': { questions: 1, recall: { '5': 0, '10': 50, '25': 50, '50': 100 } },
    '4': { questions: 2, recall: { '5': 66.7, '10': 66.7, '25': 66.7, '50': 66.7 } },
  },
};

describe('LoCoMo report', () => {
  it('--json prints exactly questions, recall, byCategory and the search latency', () => {
    expect(JSON.stringify(locomoHeadline(report, { p50Ms: 8.04, p95Ms: 12.36 }))).toBe(
      '{"questions":3,"recall":{"5":44.4,"10":61.1,"25":61.1,"50":77.8},' +
        '"byCategory":{"2":{"questions":1,"recall":{"5":0,"10":50,"25":50,"50":100}},"4":{"questions":2,"recall":{"5":66.7,"10":66.7,"25":66.7,"50":66.7}}},' +
        '"searchP50Ms":8,"searchP95Ms":12.4}',
    );
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
