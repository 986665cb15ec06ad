import { importanceScore, semanticScore, temporalScore } from './signals';

const now = new Date('2026-11-21T00:00:00Z');
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);

describe('temporal signal', () => {
  it('decays as e^(−0.05·days) since the last access, counting from creation when never accessed', () => {
    expect(temporalScore(now, null, 0, now)).toBeCloseTo(1, 10);
    expect(temporalScore(daysAgo(10), null, 0, now)).toBeCloseTo(Math.exp(-0.5), 10);
    expect(temporalScore(daysAgo(400), daysAgo(10), 0, now)).toBeCloseTo(Math.exp(-0.5), 10);
  });

  it('is reinforced by 2 % per access', () => {
    expect(temporalScore(daysAgo(10), daysAgo(10), 5, now)).toBeCloseTo(Math.exp(-0.5) * 1.1, 10);
    expect(temporalScore(daysAgo(1), daysAgo(1), 50, now)).toBeGreaterThan(
      temporalScore(daysAgo(1), daysAgo(1), 0, now),
    );
  });

  it('treats a time in the future as now', () => {
    expect(temporalScore(new Date(now.getTime() + 86_400_000), null, 0, now)).toBe(1);
  });
});

describe('importance signal', () => {
  it('is a fact importance over ten (correction 0.9, preference 0.8, fact 0.6, task 0.5)', () => {
    expect(importanceScore('fact', 9)).toBe(0.9);
    expect(importanceScore('fact', 8)).toBe(0.8);
    expect(importanceScore('fact', 6)).toBe(0.6);
    expect(importanceScore('fact', 5)).toBe(0.5);
  });

  it('is neutral for messages and summaries', () => {
    expect(importanceScore('message', null)).toBe(0.5);
    expect(importanceScore('summary', null)).toBe(0.5);
  });
});

describe('semantic signal', () => {
  it('is the cosine, with dissimilar or missing as no evidence', () => {
    expect(semanticScore(0.42)).toBe(0.42);
    expect(semanticScore(-0.3)).toBe(0);
    expect(semanticScore(null)).toBe(0);
  });
});
