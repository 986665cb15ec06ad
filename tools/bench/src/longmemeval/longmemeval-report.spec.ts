import {
  levelMeasures,
  longMemEvalHeadline,
  measuresByType,
  renderLongMemEvalTables,
  targetsMet,
  type LongMemEvalQuestionDetail,
} from './longmemeval-report';

const question = (
  type: string,
  turnRanks: Array<number | null>,
  sessionRanks: Array<number | null>,
): LongMemEvalQuestionDetail => ({
  id: `${type}-${turnRanks.join('-')}`,
  type,
  question: '?',
  asOf: null,
  turnRanks,
  sessionRanks,
  sharesWords: true,
  evidenceAfterAsOf: 0,
  top: [],
  hits: 50,
  degraded: false,
});

describe('LongMemEval report', () => {
  const questions = [
    question('single-session-user', [1], [1]),
    question('multi-session', [3, 12], [1, 2]),
    question('temporal-reasoning', [], [7]),
  ];

  it('measures turn level over the questions with has_answer turns, session level over every scored one', () => {
    const m = levelMeasures(questions);
    expect(m.turnQuestions).toBe(2);
    expect(m.sessionQuestions).toBe(3);
    expect(m.turn).toMatchObject({ 'any@5': 100, 'all@10': 50, 'all@25': 100 });
    expect(m.session).toMatchObject({ 'any@5': 66.7, 'any@10': 100 });
  });

  it('--json prints the headline measures overall and per type, in the release order of types', () => {
    const line = JSON.stringify(
      longMemEvalHeadline(measuresByType(questions), { p50Ms: 11.26, p95Ms: 20.5 }),
    );
    expect(Object.keys(JSON.parse(line))).toEqual([
      'questions',
      'turn',
      'session',
      'byType',
      'searchP50Ms',
      'searchP95Ms',
    ]);
    expect(line).toContain('"turn":{"any@5":100,"any@10":100,"all@10":50,"ndcg@10":');
    expect(line).toContain('"session":{"any@5":66.7,"any@10":100,"ndcg@10":');
    expect(Object.keys(JSON.parse(line).byType)).toEqual([
      'single-session-user',
      'multi-session',
      'temporal-reasoning',
    ]);
    expect(line).toContain('"searchP50Ms":11.3,"searchP95Ms":20.5');
  });

  it('holds the targets only when every one is met', () => {
    const { overall, byType } = measuresByType(questions);
    expect(targetsMet(overall, byType)).toBe(false);
    const perfect = measuresByType([question('single-session-preference', [1], [1])]);
    expect(targetsMet(perfect.overall, perfect.byType)).toBe(true);
  });

  it('tabulates both levels per type beside the published session figures', () => {
    const { overall, byType } = measuresByType(questions);
    const text = renderLongMemEvalTables(overall, byType);
    expect(text).toMatch(
      /^turn level \(%\)\s+any@5\s+any@10\s+any@25\s+any@50\s+all@10\s+ndcg@10\s+questions$/m,
    );
    expect(text).toMatch(/^Engram, every type\s+100\.0\s+100\.0\s+100\.0\s+100\.0\s+50\.0\s+\d+\.\d\s+2$/m);
    expect(text).toMatch(/^hybrid BM25 \+ MiniLM, all 500\s+95\.2\s+98\.6\s+87\.9$/m);
  });
});
