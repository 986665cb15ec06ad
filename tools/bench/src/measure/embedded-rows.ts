import type { Client } from 'pg';
import { IngestWait } from './ingest-wait';

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
  /** … or when it came no closer to the end for this long (IngestWait). */
  readonly stallMs: number;
  /** Messages of dead-lettered turns, which never come: the wait ends once only they are left. */
  readonly deadRows?: () => Promise<number>;
  /** Between polls (default 250 ms). */
  readonly intervalMs?: number;
  /** Called after every poll (for a progress line). */
  readonly onPoll?: (now: EmbeddedRows) => void;
}

export interface EmbeddedRowsOutcome extends EmbeddedRows {
  /** Every expected row stored and none without a vector. */
  readonly complete: boolean;
  /** Why the wait ended early ("timed out after …", "no progress for …"); undefined when complete. */
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
  const wait = new IngestWait(options, performance.now());
  let storedAt: number | undefined;
  for (;;) {
    const now = await countEmbeddedRows(admin, options.tenants);
    const deadRows = (await options.deadRows?.()) ?? 0;
    const at = performance.now();
    options.onPoll?.(now);
    if (storedAt === undefined && now.rows >= options.expectedRows) storedAt = at;
    const verdict = wait.observe({ ...now, deadRows }, at);
    if (verdict.kind === 'complete') return { ...now, complete: true, storedAt, embeddedAt: at };
    if (verdict.kind === 'stopped')
      return { ...now, complete: false, gaveUp: verdict.reason, ...(storedAt !== undefined && { storedAt }) };
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 250));
  }
}
