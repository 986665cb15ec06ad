import { leastSquaresSlope, latencyTrend } from '../measure/latency-stats';
import {
  defaultWarmupMinutes,
  furthestFromZero,
  latencyWindows,
  p95Drift,
  slopeMBPerHour,
  type TimedCall,
} from './soak-figures';

describe('soak figures', () => {
  it('fits a least-squares slope, and latencyTrend is that slope over seconds', () => {
    expect(leastSquaresSlope([])).toBe(0);
    expect(leastSquaresSlope([{ x: 5, y: 1 }])).toBe(0);
    expect(
      leastSquaresSlope([
        { x: 1, y: 3 },
        { x: 1, y: 9 },
      ]),
    ).toBe(0);
    // y = 2x + 1 ± 0.5: the fit over every point (1.8), not the slope between the end points (5/3).
    const points = [0, 1, 2, 3].map((x, i) => ({ x, y: 2 * x + 1 + (i % 2 === 0 ? 0.5 : -0.5) }));
    expect(leastSquaresSlope(points)).toBeCloseTo(1.8, 10);
    expect(
      leastSquaresSlope([
        { x: 0, y: 1 },
        { x: 1, y: 3 },
        { x: 2, y: 5 },
      ]),
    ).toBeCloseTo(2, 10);
    const t0 = Date.parse('2026-11-24T10:00:00Z');
    expect(
      latencyTrend([
        { startMs: t0, latencyMs: 10 },
        { startMs: t0 + 1000, latencyMs: 30 },
        { startMs: t0 + 2000, latencyMs: 50 },
      ]),
    ).toBeCloseTo(20, 6);
  });

  it('warms up for a fifth of the run, from 1 to 5 minutes, and never for the whole run', () => {
    expect(defaultWarmupMinutes(30)).toBe(5);
    expect(defaultWarmupMinutes(60)).toBe(5);
    expect(defaultWarmupMinutes(10)).toBe(2);
    expect(defaultWarmupMinutes(4)).toBe(1);
    expect(defaultWarmupMinutes(1)).toBe(0);
  });

  it('gives resident memory growth per hour over the readings after the warm-up only', () => {
    // Growing fast while warming up (the first 60 s), then 1 MB a minute.
    const readings = [
      { tS: 0, value: 50 },
      { tS: 30, value: 120 },
      ...[60, 120, 180, 240].map((tS, i) => ({ tS, value: 200 + i })),
    ];
    expect(slopeMBPerHour(readings, 60)).toBe(60);
    expect(slopeMBPerHour(readings.slice(0, 3), 60)).toBe(0);
    expect(slopeMBPerHour(readings, 0)).toBeGreaterThan(60);
  });

  it('measures p95 drift between the first and last whole windows after the warm-up', () => {
    const origin = Date.parse('2026-11-24T10:00:00Z');
    const calls: TimedCall[] = [];
    // 4 windows of 60 s; each holds 100 calls of 10…(p95) ms; the slow first window is the warm-up.
    const p95s = [500, 100, 110, 120];
    p95s.forEach((p95, w) => {
      for (let i = 0; i < 100; i++)
        calls.push({ startMs: origin + w * 60_000 + i * 500, latencyMs: i < 94 ? 10 : p95 });
    });
    // A failed call is not a latency.
    calls.push({ startMs: origin + 61_000, latencyMs: 10_000, error: 'TIMEOUT' });
    // A call in a window the run did not finish.
    calls.push({ startMs: origin + 245_000, latencyMs: 9_000 });
    const windows = latencyWindows(calls, origin, 60);
    expect(windows.map((w) => w.p95Ms)).toEqual([500, 100, 110, 120, 9000]);
    const drift = p95Drift(windows, 60, 240)!;
    expect(drift.firstWindow.fromS).toBe(60);
    expect(drift.lastWindow.toS).toBe(240);
    expect(drift.driftPct).toBe(20);
    expect(p95Drift(windows, 120, 180)).toBeNull();
    expect(p95Drift(windows, 180, 240)).toBeNull();
  });

  it('reports the figure furthest from zero, its sign kept', () => {
    expect(furthestFromZero([])).toBe(0);
    expect(furthestFromZero([3, -7.5, 6])).toBe(-7.5);
    expect(furthestFromZero([0.1, 0.4, -0.2])).toBe(0.4);
  });
});
