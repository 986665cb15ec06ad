import { summarizeLatencies } from '../measure/latency-stats';
import { searchHeadline, searchTargets, type LatencyRun, type ScaleResult } from './search-report';

const run = (latencies: number[], failed = 0): LatencyRun => ({
  latency: summarizeLatencies(latencies),
  calls: latencies.length + failed,
  seconds: 1,
  perSecond: latencies.length + failed,
  errors: failed ? { UNAVAILABLE: failed } : {},
  degraded: 0,
  degradedReasons: {},
});
const scale = (messages: number, rpc: LatencyRun | null, floor: LatencyRun | null) =>
  ({ corpus: { messages }, rpc, floor }) as unknown as ScaleResult;
/** 100 latencies: p50 = p95 ÷ 2, p99 = 1.5 × p95. */
const ms = (p95: number) =>
  Array.from({ length: 100 }, (_, i) => (i < 50 ? p95 / 2 : i < 95 ? p95 : p95 * 1.5));

describe('search headline and targets', () => {
  it('reports p50/p95/p99 at 1 M, the floor and p95 at 100 k, and judges the targets', () => {
    const h = searchHeadline({
      scales: [scale(1_000_000, run(ms(20)), run(ms(15))), scale(100_000, run(ms(12)), run(ms(9)))],
    });
    expect(h).toEqual({
      messages: 1_000_000,
      p50Ms: 10,
      p95Ms: 20,
      p99Ms: 30,
      floorP95Ms: 15,
      p95Ms100k: 12,
    });
    expect(searchTargets(h)).toMatchObject({ p95Met: true, scaleMet: true, floorMet: true });
    expect(searchTargets({ ...h, p95Ms: 26 })).toMatchObject({
      p95Met: false,
      scaleMet: false,
      floorMet: false,
    });
  });

  it('has no RPC figures when calls failed or the RPC was not run, and then judges nothing', () => {
    const h = searchHeadline({
      scales: [scale(1_000_000, run([], 2200), run(ms(15))), scale(100_000, null, run(ms(9)))],
    });
    expect(h).toEqual({
      messages: 1_000_000,
      p50Ms: null,
      p95Ms: null,
      p99Ms: null,
      floorP95Ms: 15,
      p95Ms100k: null,
    });
    expect(searchTargets(h)).toMatchObject({ p95Met: null, scaleMet: null, floorMet: null });
    expect(searchHeadline({ scales: [scale(1_000_000, run(ms(20), 1), null)] }).p95Ms).toBeNull();
  });
});
