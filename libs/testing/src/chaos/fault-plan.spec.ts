import { CHAOS_WORKERS, planFaults } from './fault-plan';

describe('planFaults', () => {
  const full = planFaults({ loadMs: 180_000, killsPerWorker: 2, gertyStallMs: 30_000 });

  it('kills every worker the asked number of times, restarts NATS and Postgres once, stalls Gerty once', () => {
    for (const worker of CHAOS_WORKERS)
      expect(full.filter((f) => f.kind === 'kill' && f.worker === worker)).toHaveLength(2);
    expect(full.filter((f) => f.kind === 'restart-nats')).toHaveLength(1);
    expect(full.filter((f) => f.kind === 'restart-postgres')).toHaveLength(1);
    expect(full.filter((f) => f.kind === 'stall-gerty')).toEqual([
      { atMs: 18_000, kind: 'stall-gerty', forMs: 30_000 },
    ]);
  });

  it('puts every fault inside the load, in time order, and no Gerty kill inside the stall', () => {
    const times = full.map((f) => f.atMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(Math.min(...times)).toBeGreaterThan(0);
    expect(Math.max(...times)).toBeLessThan(180_000);
    const gertyKills = full.filter((f) => f.kind === 'kill' && f.worker === 'gerty').map((f) => f.atMs);
    for (const at of gertyKills) expect(at < 18_000 || at > 48_000).toBe(true);
  });

  it('moves a Gerty kill that would land in the stall to just after it', () => {
    const short = planFaults({ loadMs: 20_000, killsPerWorker: 1, gertyStallMs: 15_000 });
    const stall = short.find((f) => f.kind === 'stall-gerty')!;
    expect(stall.atMs).toBe(2_000);
    const gerty = short.find((f) => f.kind === 'kill' && f.worker === 'gerty')!;
    expect(gerty.atMs).toBe(17_500);
  });

  it('ends the stall inside the load when the load is shorter than a tenth plus the stall', () => {
    const plan = planFaults({ loadMs: 10_000, killsPerWorker: 1, gertyStallMs: 9_500 });
    expect(plan.find((f) => f.kind === 'stall-gerty')!.atMs).toBe(500);
  });
});
