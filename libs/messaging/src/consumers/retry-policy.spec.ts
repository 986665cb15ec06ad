import { retryDelayMs } from './retry-policy';

describe('retryDelayMs', () => {
  const policy = { baseDelayMs: 1000, maxDelayMs: 60_000 };
  const noJitter = () => 0.5;

  it('doubles with every delivery', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, policy, noJitter))).toEqual([1000, 2000, 4000, 8000]);
  });

  it('never waits longer than the maximum', () => {
    expect(retryDelayMs(10, policy, noJitter)).toBe(60_000);
    expect(retryDelayMs(1000, policy, () => 1)).toBe(60_000);
  });

  it('spreads retries by ±20 %', () => {
    expect(retryDelayMs(1, policy, () => 0)).toBe(800);
    expect(retryDelayMs(1, policy, () => 0.9999)).toBe(1200);
  });
});
