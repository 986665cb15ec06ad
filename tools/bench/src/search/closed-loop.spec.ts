import { runClosedLoop } from './closed-loop';

describe('closed-loop clients', () => {
  it('sends every item once, never more than `clients` at a time, and times each call', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    const run = await runClosedLoop([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      inFlight++;
      most = Math.max(most, inFlight);
      seen.push(item);
      await new Promise((r) => setTimeout(r, 5 + item));
      inFlight--;
      return item * 10;
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
    expect(run.outcomes.map((o) => o.value)).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(run.outcomes.every((o) => o.latencyMs >= 4)).toBe(true);
    expect(run.wallMs).toBeGreaterThanOrEqual(Math.max(...run.outcomes.map((o) => o.latencyMs)));
  });

  it('records failures by code (or name and message) and goes on', async () => {
    const run = await runClosedLoop(['ok', 'code', 'plain'], 2, async (item) => {
      if (item === 'code') throw Object.assign(new Error('nobody answers'), { code: 'UNAVAILABLE' });
      if (item === 'plain') throw new TypeError('bad');
      return item;
    });
    expect(run.outcomes.map((o) => o.error)).toEqual([undefined, 'UNAVAILABLE', 'TypeError: bad']);
    expect(run.outcomes[0]!.value).toBe('ok');
  });
});
