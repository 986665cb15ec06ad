import { runOpenLoop } from './open-loop';

describe('runOpenLoop', () => {
  it('sends at a steady rate whatever the answers take, and records failures by code', async () => {
    const sentAt: number[] = [];
    const started = performance.now();
    const run = await runOpenLoop(50, 0.2, 100, async (n) => {
      sentAt.push(performance.now() - started);
      // Answers slower than the interval: a closed loop would fall behind.
      await new Promise((r) => setTimeout(r, 60));
      if (n === 3) throw Object.assign(new Error('busy'), { code: 'RESOURCE_EXHAUSTED' });
    });
    expect(run.calls).toHaveLength(10);
    expect(run.skipped).toBe(0);
    // Due at 180 ms; one caller waiting for each answer would send it after 540 ms.
    expect(sentAt[9]!).toBeLessThan(400);
    expect(run.calls.filter((c) => c.error)).toEqual([
      expect.objectContaining({ error: 'RESOURCE_EXHAUSTED' }),
    ]);
    expect(Math.min(...run.calls.map((c) => c.latencyMs))).toBeGreaterThanOrEqual(55);
    // It returns once every call sent has ended.
    expect(performance.now() - started).toBeGreaterThanOrEqual(180 + 55);
  });

  it('skips what falls due while the most allowed are out, and counts it', async () => {
    const release: Array<() => void> = [];
    const running = runOpenLoop(100, 0.1, 2, () => new Promise<void>((r) => release.push(r)));
    await new Promise((r) => setTimeout(r, 150));
    release.forEach((r) => r());
    const run = await running;
    expect(run.calls).toHaveLength(2);
    expect(run.skipped).toBe(8);
  });

  it('sends nothing at a rate of 0', async () => {
    expect(await runOpenLoop(0, 10, 1, () => Promise.resolve())).toEqual({ calls: [], skipped: 0 });
  });
});
