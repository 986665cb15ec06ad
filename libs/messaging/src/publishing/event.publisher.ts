import { Injectable } from '@nestjs/common';
import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import { encodeMessage, type EventSpec } from '@engram/contracts';
import { context, type Context } from '@engram/telemetry';
import { NatsClient } from '../connection/nats.client';
import { injectTraceContext } from '../tracing/trace-headers';

export interface PublishOptions {
  /**
   * Deterministic id of this event (Nats-Msg-Id): a handler that runs again after
   * a crash publishes the same id, and JetStream drops the duplicate.
   */
  readonly msgId: string;
  /** The trace this event continues; defaults to the active one. */
  readonly traceContext?: Context;
}

/** Publishes events to JetStream and waits for the stream to have stored them. */
@Injectable()
export class EventPublisher {
  constructor(private readonly nats: NatsClient) {}

  async publish<S extends EventSpec>(
    event: S,
    tenantId: string,
    message: MessageInitShape<S['schema']>,
    options: PublishOptions,
  ): Promise<void> {
    await this.publishTo(event.schema, event.subject(tenantId), message, options);
  }

  /** To a subject built by the caller (work items are keyed by more than the tenant). */
  async publishTo<S extends DescMessage>(
    schema: S,
    subject: string,
    message: MessageInitShape<S>,
    options: PublishOptions,
  ): Promise<void> {
    const { js } = await this.nats.connected();
    await js.publish(subject, encodeMessage(schema, message), {
      msgID: options.msgId,
      headers: injectTraceContext(undefined, options.traceContext ?? context.active()),
    });
  }
}
