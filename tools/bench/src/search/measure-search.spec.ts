import { latencyRun } from './measure-search';
import type { ClosedLoopRun } from './closed-loop';

const loop = (outcomes: ClosedLoopRun<unknown>['outcomes']): ClosedLoopRun<unknown> => ({
  outcomes,
  wallMs: 1000,
});

describe('latencyRun', () => {
  it('times the calls that succeeded, counts the others by error, and shares the machine CPU among every call', () => {
    const run = latencyRun(
      loop([
        { latencyMs: 4, value: {} },
        { latencyMs: 6, value: {} },
        { latencyMs: 9000, error: 'DEADLINE_EXCEEDED' },
        { latencyMs: 8, value: {} },
      ]),
      () => ({}),
      0.02,
    );
    expect(run.latency.count).toBe(3);
    expect(run.latency.maxMs).toBe(8);
    expect(run.errors).toEqual({ DEADLINE_EXCEEDED: 1 });
    expect(run.machineCpuMsPerCall).toBeCloseTo(5);
  });

  it('reports no machine CPU when none was measured', () => {
    expect(latencyRun(loop([{ latencyMs: 4, value: {} }]), () => ({})).machineCpuMsPerCall).toBeUndefined();
  });
});
