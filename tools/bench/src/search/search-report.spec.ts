import { summarizeLatencies } from '../measure/latency-stats';
import { searchHeadline, searchTargets, type LatencyRun, type ScaleResult } from './search-report';

const run = (
  latencies: number[],
  failed = 0,
  cpuMs?: number,
  cpuMsPerCallBy?: Record<string, number>,
): LatencyRun => ({
  latency: summarizeLatencies(latencies),
  calls: latencies.length + failed,
  seconds: 1,
  perSecond: latencies.length + failed,
  errors: failed ? { UNAVAILABLE: failed } : {},
  degraded: 0,
  degradedReasons: {},
  ...(cpuMs !== undefined && { machineCpuMsPerCall: cpuMs }),
  ...(cpuMsPerCallBy && { cpuMsPerCallBy }),
});
const warmUp = {
  oneTenant: { tenantId: 't', messages: 10_000, ms: 400 },
  all: { tenants: 99, messages: 990_000, ms: 30_000 },
  rssMB: 900,
  indexMB: 700,
};
const scale = (
  messages: number,
  rpc: LatencyRun | null,
  floor: LatencyRun | null,
  shell: LatencyRun | null = null,
  index: typeof warmUp | null = null,
  echo: LatencyRun | null = null,
  echoRead: LatencyRun | null = null,
) => ({ corpus: { messages }, rpc, floor, shell, index, echo, echoRead }) as unknown as ScaleResult;
/** 100 latencies: p50 = p95 ÷ 2, p99 = 1.5 × p95. */
const ms = (p95: number) =>
  Array.from({ length: 100 }, (_, i) => (i < 50 ? p95 / 2 : i < 95 ? p95 : p95 * 1.5));

describe('search headline and targets', () => {
  it('reports p50/p95/p99, the shell, CPU, index memory and load times at 1 M, p95 at 100 k, and judges the targets', () => {
    const h = searchHeadline({
      scales: [
        scale(
          1_000_000,
          run(ms(20), 0, 3.2, { retrieval: 1.5, postgres: 0.5, other: 9 }),
          run(ms(15)),
          run(ms(14), 0, 1.5, { retrieval: 0.6, nats: 0.3, other: 4 }),
          warmUp,
          run(ms(3), 0, 0.6, { echo: 0.2, nats: 0.2, bench: 0.1, other: 2 }),
          run(ms(5), 0, 0.9, { echo: 0.3, postgres: 0.2, nats: 0.2, bench: 0.1, other: 2 }),
        ),
        scale(100_000, run(ms(12)), run(ms(9))),
      ],
    });
    expect(h).toEqual({
      messages: 1_000_000,
      p50Ms: 10,
      p95Ms: 20,
      p99Ms: 30,
      shellP95Ms: 14,
      echoP95Ms: 3,
      echoReadP95Ms: 5,
      cpuMsPerSearch: 3.2,
      searchCpuMs: 2,
      shellCpuMs: 0.9,
      echoCpuMs: 0.5,
      echoReadCpuMs: 0.8,
      indexMemoryMB: 700,
      floorP95Ms: 15,
      p95Ms100k: 12,
      coldLoad10kMs: 400,
      coldLoadAllMs: 30_400,
    });
    expect(searchTargets(h)).toMatchObject({
      p95Met: true,
      scaleMet: true,
      shellMet: true,
      cpuMet: true,
      memoryMet: true,
      shellCpuMet: true,
      searchCpuMet: false,
    });
    expect(
      searchTargets({ ...h, p95Ms: 26, cpuMsPerSearch: 3.6, indexMemoryMB: 1001, shellCpuMs: 1.1 }),
    ).toMatchObject({
      p95Met: false,
      scaleMet: false,
      shellMet: false,
      cpuMet: false,
      memoryMet: false,
      shellCpuMet: false,
      searchCpuMet: true,
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
      shellP95Ms: null,
      echoP95Ms: null,
      echoReadP95Ms: null,
      cpuMsPerSearch: null,
      searchCpuMs: null,
      shellCpuMs: null,
      echoCpuMs: null,
      echoReadCpuMs: null,
      indexMemoryMB: null,
      floorP95Ms: 15,
      p95Ms100k: null,
      coldLoad10kMs: null,
      coldLoadAllMs: null,
    });
    expect(searchTargets(h)).toMatchObject({
      p95Met: null,
      scaleMet: null,
      shellMet: null,
      cpuMet: null,
      memoryMet: null,
      shellCpuMet: null,
      searchCpuMet: null,
    });
    expect(searchHeadline({ scales: [scale(1_000_000, run(ms(20), 1), null)] }).p95Ms).toBeNull();
  });
});
