import type { Client } from 'pg';

/** Message rows of some tenants, and how many of them have no vector yet. */
export interface EmbeddedRows {
  readonly rows: number;
  readonly missing: number;
}

export async function countEmbeddedRows(admin: Client, tenants: readonly string[]): Promise<EmbeddedRows> {
  const { rows } = await admin.query<{ rows: string; missing: string }>(
    `SELECT count(*) AS rows, count(*) FILTER (WHERE e.item_id IS NULL) AS missing
       FROM messages m LEFT JOIN embeddings e ON e.item_kind = 'message' AND e.item_id = m.id
      WHERE m.tenant_id = ANY($1)`,
    [tenants],
  );
  return { rows: Number(rows[0]!.rows), missing: Number(rows[0]!.missing) };
}

export interface EmbeddedRowsWait {
  /** Tenants whose message rows count. */
  readonly tenants: readonly string[];
  readonly expectedRows: number;
  /** Give up this long after the wait started … */
  readonly timeoutMs: number;
  /** … or when neither count moved for this long. */
  readonly stallMs: number;
  /** Between polls (default 250 ms). */
  readonly intervalMs?: number;
  /** Called after every poll (for a progress line). */
  readonly onPoll?: (now: EmbeddedRows) => void;
}

export interface EmbeddedRowsOutcome extends EmbeddedRows {
  /** Every expected row stored and none without a vector. */
  readonly complete: boolean;
  /** Why the wait ended early ("timed out after …", "no change for …"); undefined when complete. */
  readonly gaveUp?: string;
  /** performance.now() of the first poll that saw every expected row stored, and every one of them with a vector. */
  readonly storedAt?: number;
  readonly embeddedAt?: number;
}

/**
 * Polls the message rows of `tenants` (as a superuser: past row-level security) until
 * `expectedRows` are stored and each has a vector (a row of `embeddings`), or gives up.
 */
export async function waitForEmbeddedRows(
  admin: Client,
  options: EmbeddedRowsWait,
): Promise<EmbeddedRowsOutcome> {
  const started = performance.now();
  let last: EmbeddedRows = { rows: -1, missing: -1 };
  let lastChange = started;
  let storedAt: number | undefined;
  for (;;) {
    const now = await countEmbeddedRows(admin, options.tenants);
    const at = performance.now();
    options.onPoll?.(now);
    if (now.rows !== last.rows || now.missing !== last.missing) lastChange = at;
    last = now;
    if (storedAt === undefined && now.rows >= options.expectedRows) storedAt = at;
    if (now.rows >= options.expectedRows && now.missing === 0)
      return { ...now, complete: true, storedAt, embeddedAt: at };
    let gaveUp: string | undefined;
    if (at - started > options.timeoutMs)
      gaveUp = `timed out after ${Math.round(options.timeoutMs / 1000)} s`;
    else if (at - lastChange > options.stallMs)
      gaveUp = `no change for ${Math.round(options.stallMs / 1000)} s`;
    if (gaveUp) return { ...now, complete: false, gaveUp, ...(storedAt !== undefined && { storedAt }) };
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 250));
  }
}
