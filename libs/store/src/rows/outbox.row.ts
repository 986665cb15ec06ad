/** An event as the outbox keeps it: encoded, with its subject, msg id and the trace it continues. */
export interface OutboxEntry {
  readonly subject: string;
  /** Nats-Msg-Id; unique in the outbox, so the same change announced again adds no row. */
  readonly msgId: string;
  readonly payload: Uint8Array;
  readonly traceparent?: string;
  readonly tracestate?: string;
}

/**
 * A row of `outbox` to publish, as the relay and a writer's own after-commit publish handle it
 * (bigint ids are strings). Its other columns (created_at, due_at, last_error) are read by the
 * table's functions only.
 */
export interface OutboxRow extends OutboxEntry {
  readonly id: string;
  readonly tenantId: string;
  /** Attempts so far, this one included (0 for a writer's own after-commit publish). */
  readonly attempts: number;
}
