import { jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  decodeMessage,
  FactUpsertedSchema,
  Streams,
  Subjects,
  type DescMessage,
  type FactUpserted,
  type MessageShape,
} from '@engram/contracts';
import { waitFor } from './free-port';

/** An event as JetStream stored it: decoded, with the msg id it was published under. */
export interface StoredEvent<E> {
  readonly event: E;
  readonly msgId: string;
}

/** Every event on a stream under a subject (wildcards allowed) so far, from the start, in stream order. */
export async function eventsOn<S extends DescMessage>(
  js: JetStreamClient,
  stream: string,
  subject: string,
  schema: S,
): Promise<Array<StoredEvent<MessageShape<S>>>> {
  const consumer = await js.consumers.get(stream, { filter_subjects: subject });
  const out: Array<StoredEvent<MessageShape<S>>> = [];
  for (;;) {
    let got = 0;
    for await (const m of await consumer.fetch({ max_messages: 500, expires: 1000 })) {
      got++;
      out.push({
        event: decodeMessage(schema, m.data, { strict: false }),
        msgId: m.headers?.get('Nats-Msg-Id') ?? '',
      });
      if (m.info.pending === 0) return out;
    }
    if (got === 0) return out;
  }
}

/** The mem.fact.upserted events of a tenant so far, with their msg ids. */
export function factEvents(js: JetStreamClient, tenantId: string): Promise<Array<StoredEvent<FactUpserted>>> {
  return eventsOn(js, Streams.events.name, Subjects.factUpserted(tenantId), FactUpsertedSchema);
}

/** Resolves once each of these durable consumers of the events stream has nothing pending and nothing unacknowledged. */
export async function eventConsumersSettled(
  nc: NatsConnection,
  durables: readonly string[],
  timeoutMs: number,
): Promise<void> {
  const jsm = await jetstreamManager(nc);
  await waitFor(
    `${durables.join(', ')} settled`,
    async () => {
      for (const durable of durables) {
        const info = await jsm.consumers.info(Streams.events.name, durable);
        if (info.num_ack_pending > 0 || info.num_pending > 0) return false;
      }
      return true;
    },
    timeoutMs,
  );
}
