import { Injectable } from '@nestjs/common';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { encodeMessage, type EventSpec, type WorkSpec } from '@engram/contracts';
import { appendToOutbox, type EntityManager, type OutboxEntry } from '@engram/store';
import type { Context } from '@engram/telemetry';
import { traceFieldsOf } from '../tracing/trace-headers';

/** How long a writer has to publish its own events after its commit before relays may take them. */
export const WRITER_GRACE_MS = 5_000;

export interface AnnounceOptions {
  /** From MsgIds (libs/contracts): names the change, so announcing it again adds nothing. */
  readonly msgId: string;
  /** The trace the event continues; defaults to the active one. */
  readonly traceContext?: Context;
}

/** An event of `Events`, encoded for the outbox. */
export function eventEntry<S extends EventSpec>(
  event: S,
  tenantId: string,
  message: MessageInitShape<S['schema']>,
  options: AnnounceOptions,
): OutboxEntry {
  return entry(event.subject(tenantId), encodeMessage(event.schema, message), options);
}

/** A work item of `WorkItems` (its subject names what it is about), encoded for the outbox. */
export function workEntry<S extends WorkSpec>(
  work: S,
  tenantId: string,
  key: string,
  message: MessageInitShape<S['schema']>,
  options: AnnounceOptions,
): OutboxEntry {
  return entry(work.subject(tenantId, key), encodeMessage(work.schema, message), options);
}

function entry(subject: string, payload: Uint8Array, options: AnnounceOptions): OutboxEntry {
  return { subject, payload, msgId: options.msgId, ...traceFieldsOf(options.traceContext) };
}

/**
 * The one way a service announces an event: it is written to the outbox in the same
 * tenant transaction as the change it announces, so both commit or neither does. This
 * process publishes it right after the commit (TenantTransactions hands it to the relay);
 * if it dies first, any relay publishes it later, under the same msg id.
 */
@Injectable()
export class Outbox {
  /** Keeps one event in the caller's transaction. */
  announce<S extends EventSpec>(
    manager: EntityManager,
    event: S,
    tenantId: string,
    message: MessageInitShape<S['schema']>,
    options: AnnounceOptions,
  ): Promise<void> {
    return this.add(manager, tenantId, [eventEntry(event, tenantId, message, options)]);
  }

  /** Keeps entries (eventEntry, workEntry) of one tenant in the caller's transaction, acting for that tenant. */
  async add(manager: EntityManager, tenantId: string, entries: readonly OutboxEntry[]): Promise<void> {
    await appendToOutbox(manager, tenantId, entries, WRITER_GRACE_MS);
  }
}
