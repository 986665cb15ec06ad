import { latencyTimeline, leastSquaresSlope, type LatencySlice } from '../measure/latency-stats';

/** One reading of a value during the run, `tS` seconds after the load began. */
export interface TimedValue {
  readonly tS: number;
  readonly value: number;
}

/** One call the soak made (a search, a context build): when it was sent (epoch ms) and how it ended. */
export interface TimedCall {
  readonly startMs: number;
  readonly latencyMs: number;
  readonly error?: string;
}

/** The warm-up when none is given: a fifth of the run, at least 1 and at most 5 minutes (never the whole run). */
export function defaultWarmupMinutes(minutes: number): number {
  return Math.min(5, Math.max(1, Math.round(minutes / 5)), Math.max(0, minutes - 1));
}

/**
 * Resident memory's growth in MB per hour: the least-squares slope of the readings (MB) taken at
 * or after the warm-up, over their time. 0 with fewer than two such readings.
 */
export function slopeMBPerHour(readings: readonly TimedValue[], warmupS: number): number {
  const after = readings.filter((r) => r.tS >= warmupS);
  return round1(leastSquaresSlope(after.map((r) => ({ x: r.tS, y: r.value }))) * 3600);
}

/** p95 of the first and the last whole window after the warm-up, and the change between them. */
export interface P95Drift {
  readonly firstWindow: LatencySlice;
  readonly lastWindow: LatencySlice;
  /** (last p95 − first p95) ÷ first p95 × 100. */
  readonly driftPct: number;
}

/**
 * Latency per window of `windowS` seconds, by when each call was sent (seconds since `originMs`);
 * failed calls are left out (they are counted apart).
 */
export function latencyWindows(
  calls: readonly TimedCall[],
  originMs: number,
  windowS: number,
): LatencySlice[] {
  return latencyTimeline(
    calls.filter((c) => c.error === undefined),
    originMs,
    windowS,
  );
}

/**
 * The drift of p95 between the first and the last window that start at or after the warm-up and
 * end by the end of the run (whole windows only); null with fewer than two such windows.
 */
export function p95Drift(windows: readonly LatencySlice[], warmupS: number, runS: number): P95Drift | null {
  const whole = windows.filter((w) => w.fromS >= warmupS && w.toS <= runS && w.count > 0);
  if (whole.length < 2) return null;
  const firstWindow = whole[0]!;
  const lastWindow = whole[whole.length - 1]!;
  const driftPct =
    firstWindow.p95Ms === 0 ? 0 : ((lastWindow.p95Ms - firstWindow.p95Ms) / firstWindow.p95Ms) * 100;
  return { firstWindow, lastWindow, driftPct: round1(driftPct) };
}

/** The figure furthest from 0, its sign kept (the worst of several services or calls); 0 for none. */
export function furthestFromZero(values: readonly number[]): number {
  return values.reduce((worst, v) => (Math.abs(v) > Math.abs(worst) ? v : worst), 0);
}

const round1 = (x: number) => Math.round(x * 10) / 10;
