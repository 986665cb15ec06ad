import type { TimedCall } from './soak-figures';

export interface OpenLoopRun {
  /** Every call sent, in the order sent. */
  readonly calls: readonly TimedCall[];
  /** Calls that fell due while `maxInFlight` were still out, and were not sent. */
  readonly skipped: number;
}

function describe(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string')
    return error.code;
  return error instanceof Error ? error.name : String(error);
}

/**
 * Sends `call(n)` at a steady `perSecond` for `seconds` without waiting for the answers (an open
 * loop, as independent agents ask: a slow answer does not slow the rate), the n-th at start +
 * n ÷ perSecond. At most `maxInFlight` calls are out at once; one falling due beyond that is
 * skipped and counted. Resolves once the time is up and every call sent has ended.
 */
export async function runOpenLoop(
  perSecond: number,
  seconds: number,
  maxInFlight: number,
  call: (n: number) => Promise<unknown>,
): Promise<OpenLoopRun> {
  const calls: TimedCall[] = [];
  const pending = new Set<Promise<void>>();
  let skipped = 0;
  if (perSecond <= 0) return { calls, skipped };
  const start = performance.now();
  const epochAtStart = Date.now();
  for (let n = 0; ; n++) {
    const dueMs = (n / perSecond) * 1000;
    if (dueMs >= seconds * 1000) break;
    const wait = start + dueMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (pending.size >= maxInFlight) {
      skipped++;
      continue;
    }
    const sent = performance.now();
    const record = (error?: unknown) => {
      const latencyMs = performance.now() - sent;
      const startMs = epochAtStart + (sent - start);
      calls.push(
        error === undefined ? { startMs, latencyMs } : { startMs, latencyMs, error: describe(error) },
      );
    };
    const settled: Promise<void> = call(n).then(
      () => record(),
      (error: unknown) => record(error ?? 'rejected'),
    );
    pending.add(settled);
    void settled.finally(() => pending.delete(settled));
  }
  await Promise.all(pending);
  calls.sort((a, b) => a.startMs - b.startMs);
  return { calls, skipped };
}
