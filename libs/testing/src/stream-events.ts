import type { JetStreamClient } from '@nats-io/jetstream';
import {
  decodeMessage,
  FactUpsertedSchema,
  Streams,
  Subjects,
  type DescMessage,
  type FactUpserted,
  type MessageShape,
} from '@engram/contracts';

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
