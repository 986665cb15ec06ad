import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { OutboxEntry, OutboxRow } from '../rows/outbox.row';

/** Rows appended in a transaction, by its EntityManager: handed to the publisher once it commits. */
const appendedIn = new WeakMap<EntityManager, OutboxRow[]>();

/** Collects the outbox rows that `manager`'s transaction appends into `into`. */
export function collectOutboxRows(manager: EntityManager, into: OutboxRow[]): void {
  appendedIn.set(manager, into);
}

/**
 * Keeps the entries in the caller's tenant transaction, due for relays after `graceMs`
 * (the writer publishes them itself right after its commit). An entry whose msg id the
 * outbox already holds adds nothing. Returns the rows it added.
 */
export async function appendToOutbox(
  manager: EntityManager,
  tenantId: string,
  entries: readonly OutboxEntry[],
  graceMs: number,
): Promise<OutboxRow[]> {
  const unique = [...new Map(entries.map((e) => [e.msgId, e])).values()];
  if (unique.length === 0) return [];
  const inserted: Array<{ id: string; msg_id: string }> = await manager.query(
    `INSERT INTO outbox (tenant_id, subject, msg_id, payload, traceparent, tracestate, due_at)
     SELECT $1, e.subject, e.msg_id, e.payload, e.traceparent, e.tracestate, now() + make_interval(secs => $7 / 1000.0)
       FROM unnest($2::text[], $3::text[], $4::bytea[], $5::text[], $6::text[])
         AS e(subject, msg_id, payload, traceparent, tracestate)
     ON CONFLICT (msg_id) DO NOTHING
     RETURNING id::text, msg_id`,
    [
      tenantId,
      unique.map((e) => e.subject),
      unique.map((e) => e.msgId),
      unique.map((e) => Buffer.from(e.payload)),
      unique.map((e) => e.traceparent ?? null),
      unique.map((e) => e.tracestate ?? null),
      graceMs,
    ],
  );
  const byMsgId = new Map(unique.map((e) => [e.msgId, e]));
  const rows = inserted.map((r) => ({ ...byMsgId.get(r.msg_id)!, id: r.id, tenantId, attempts: 0 }));
  appendedIn.get(manager)?.push(...rows);
  return rows;
}

/** Outbox rows that waited, how many and since when. */
export interface OutboxBacklog {
  readonly pending: number;
  readonly oldest: Date | null;
}

/**
 * The relay's side of the outbox, across tenants, through the SECURITY DEFINER functions
 * of migration 011 (the app role sees only its transaction's tenant in the table itself).
 */
@Injectable()
export class OutboxStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Up to `max` due rows of any tenant, leased to the caller for `leaseMs`. */
  async claim(max: number, leaseMs: number): Promise<OutboxRow[]> {
    const rows: Array<{
      id: string;
      tenant_id: string;
      subject: string;
      msg_id: string;
      payload: Buffer;
      traceparent: string | null;
      tracestate: string | null;
      attempts: number;
    }> = await this.dataSource.query(
      `SELECT id::text, tenant_id, subject, msg_id, payload, traceparent, tracestate, attempts
         FROM engram_outbox_claim($1, $2) ORDER BY id`,
      [max, leaseMs],
    );
    return rows.map((r) => ({
      id: r.id,
      tenantId: r.tenant_id,
      subject: r.subject,
      msgId: r.msg_id,
      payload: r.payload,
      ...(r.traceparent && { traceparent: r.traceparent }),
      ...(r.tracestate && { tracestate: r.tracestate }),
      attempts: r.attempts,
    }));
  }

  /** JetStream stored these rows' messages (or their dead letters): they leave the outbox. */
  async removeSent(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(`SELECT engram_outbox_sent($1::bigint[])`, [ids]);
  }

  /** An attempt failed: the row is due again after `retryMs`. */
  async markFailed(id: string, error: string, retryMs: number): Promise<void> {
    await this.dataSource.query(`SELECT engram_outbox_failed($1, $2, $3)`, [id, error, Math.round(retryMs)]);
  }

  async backlog(): Promise<OutboxBacklog> {
    const [row]: Array<{ pending: string; oldest: Date | null }> = await this.dataSource.query(
      `SELECT pending::text, oldest FROM engram_outbox_backlog()`,
    );
    return { pending: Number(row?.pending ?? 0), oldest: row?.oldest ?? null };
  }
}
