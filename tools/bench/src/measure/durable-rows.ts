import type { Client } from 'pg';

export interface RowSample {
  /** Milliseconds since the measurement started. */
  readonly atMs: number;
  readonly rows: number;
}

export interface DurableRows {
  /** performance.now() of the first poll that saw every expected row. */
  readonly reachedAt: number;
  readonly rows: number;
  readonly samples: readonly RowSample[];
  /** Time Postgres spent answering the polls (they compete with ingest for the same cores). */
  readonly probeSeconds: number;
}

export interface PollOptions {
  /** Between polls while much remains: a count(*) scans the whole table, so it is not free. */
  readonly sparseMs: number;
  /** Between polls once `nearlyDone` said so: this decides the precision of the end time. */
  readonly denseMs: number;
  /** A cheap probe elsewhere (e.g. the consumer's unacknowledged turns) that says the end is near. */
  readonly nearlyDone: () => Promise<boolean>;
  /** Fail when the count does not move for this long. */
  readonly stallMs: number;
}

/**
 * Polls `count(*)` of the messages table (as a superuser: every tenant) until it
 * reaches `expected` rows. A row counts once its transaction committed, so this is
 * the moment the transcript is durable. The count competes with ingest for Postgres,
 * so it runs every `sparseMs` (for the timeline) until `nearlyDone`, then every
 * `denseMs` (for the end time). Gives up when the count stops moving.
 */
export async function waitForDurableRows(
  admin: Client,
  expected: number,
  startedAt: number,
  options: PollOptions,
): Promise<DurableRows> {
  const samples: RowSample[] = [];
  let lastChange = performance.now();
  let last = -1;
  let probeMs = 0;
  let dense = false;
  let nextCount = 0;
  for (;;) {
    if (dense || performance.now() >= nextCount) {
      const before = performance.now();
      const { rows } = await admin.query<{ n: string }>('SELECT count(*) AS n FROM messages');
      const now = performance.now();
      probeMs += now - before;
      nextCount = now + options.sparseMs;
      const n = Number(rows[0]!.n);
      samples.push({ atMs: now - startedAt, rows: n });
      if (n >= expected) return { reachedAt: now, rows: n, samples, probeSeconds: probeMs / 1000 };
      if (n !== last) {
        last = n;
        lastChange = now;
      } else if (now - lastChange > options.stallMs) {
        throw new Error(`stalled at ${n} of ${expected} message rows for ${options.stallMs} ms`);
      }
    }
    if (!dense) dense = await options.nearlyDone().catch(() => false);
    await new Promise((r) => setTimeout(r, options.denseMs));
  }
}

/**
 * Rows per second over the middle of the run (from `from` to `to` of the rows,
 * e.g. 10 % to 90 %), interpolated between samples: the steady state, without the
 * first batch's latency and the tail.
 */
export function steadyRate(
  samples: readonly RowSample[],
  base: number,
  total: number,
  from = 0.1,
  to = 0.9,
): number {
  const timeAt = (target: number): number => {
    for (let i = 1; i < samples.length; i++) {
      const a = samples[i - 1]!;
      const b = samples[i]!;
      if (b.rows - base >= target) {
        const span = b.rows - a.rows;
        return span <= 0 ? b.atMs : a.atMs + ((target - (a.rows - base)) / span) * (b.atMs - a.atMs);
      }
    }
    return samples[samples.length - 1]!.atMs;
  };
  const t1 = timeAt(total * from);
  const t2 = timeAt(total * to);
  return t2 > t1 ? (total * (to - from)) / ((t2 - t1) / 1000) : 0;
}
