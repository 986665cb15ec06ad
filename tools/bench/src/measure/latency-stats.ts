/** Percentiles of a set of durations (ms), nearest rank. */
export interface LatencySummary {
  readonly count: number;
  readonly meanMs: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly minMs: number;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

export function summarizeLatencies(values: readonly number[]): LatencySummary {
  if (values.length === 0) return { count: 0, meanMs: 0, p50Ms: 0, p95Ms: 0, p99Ms: 0, maxMs: 0, minMs: 0 };
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count: sorted.length,
    meanMs: round1(sum / sorted.length),
    p50Ms: round1(at(0.5)),
    p95Ms: round1(at(0.95)),
    p99Ms: round1(at(0.99)),
    maxMs: round1(sorted[sorted.length - 1]!),
    minMs: round1(sorted[0]!),
  };
}

/** One slice of a timeline: the items whose start fell in [fromS, toS) seconds. */
export interface LatencySlice extends LatencySummary {
  readonly fromS: number;
  readonly toS: number;
}

/**
 * Latencies grouped by when their item started (seconds since `originMs`), `sliceS` wide:
 * whether the latency stayed flat (the rate was sustained) or grew (a backlog built up).
 */
export function latencyTimeline(
  items: ReadonlyArray<{ readonly startMs: number; readonly latencyMs: number }>,
  originMs: number,
  sliceS: number,
): LatencySlice[] {
  const slices = new Map<number, number[]>();
  for (const item of items) {
    const index = Math.floor((item.startMs - originMs) / 1000 / sliceS);
    const list = slices.get(index) ?? [];
    list.push(item.latencyMs);
    slices.set(index, list);
  }
  return [...slices.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([index, values]) => ({
      fromS: index * sliceS,
      toS: (index + 1) * sliceS,
      ...summarizeLatencies(values),
    }));
}

/** Least-squares slope of y over x (y's units per unit of x); 0 when x does not vary. */
export function leastSquaresSlope(points: ReadonlyArray<{ readonly x: number; readonly y: number }>): number {
  const n = points.length;
  if (n < 2) return 0;
  let sx = 0;
  let sy = 0;
  for (const p of points) {
    sx += p.x;
    sy += p.y;
  }
  const mx = sx / n;
  const my = sy / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    const dx = p.x - mx;
    sxy += dx * (p.y - my);
    sxx += dx * dx;
  }
  return sxx === 0 ? 0 : sxy / sxx;
}

/**
 * Least-squares slope of latency over start time: milliseconds of latency added per second.
 * About 0 when a pipeline keeps up with its input; about 1000 × (rate ÷ throughput − 1) when a
 * first-in-first-out backlog builds up (an item published at t waits for everything before it).
 */
export function latencyTrend(
  items: ReadonlyArray<{ readonly startMs: number; readonly latencyMs: number }>,
): number {
  return leastSquaresSlope(items.map((i) => ({ x: i.startMs / 1000, y: i.latencyMs })));
}
