import {
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { ALL_STREAMS, Consumers, Streams, subjectMatches, type StreamSpec } from '@engram/contracts';
import { isJetStreamNotFound } from '../topology/queue-status';
import { TopologyProvisioner } from '../topology/topology.provisioner';

/**
 * What a backup keeps of each stream. Postgres is the system of record and the streams are
 * buffers in front of it, so a backup keeps only what Postgres does not hold yet:
 * - `unconsumed`: the messages some durable consumer has not acknowledged (a consumer acknowledges
 *   only after its effect committed). What every consumer took is in the database already; events no
 *   consumer reads (vectors written, compactions created, patrols completed) announce what is.
 * - `all`: dead letters, the only record of what a worker gave up on.
 * - `derived`: WORK's items are derived from Postgres again by the restore (every tool call still
 *   without content is enqueued for its description), so the stream is not kept.
 */
export const STREAM_BACKUP_SCOPE: Readonly<Record<string, 'unconsumed' | 'all' | 'derived'>> = {
  [Streams.turns.name]: 'unconsumed',
  [Streams.events.name]: 'unconsumed',
  [Streams.work.name]: 'derived',
  [Streams.deadLetters.name]: 'all',
};

/** Where a durable consumer stood when the backup began: everything after `ackFloor` may lack its effect in Postgres. */
export interface ConsumerPosition {
  readonly stream: string;
  readonly durable: string;
  readonly filterSubject: string;
  /** The stream sequence up to which it acknowledged every message (0: nothing, or it does not exist yet). */
  readonly ackFloor: number;
}

/** A stream message as a backup keeps it (one JSON line). */
export interface BackedUpMessage {
  readonly stream: string;
  readonly seq: number;
  /** When the stream stored it (ISO 8601); a restore publishes it anew, so this is for the record. */
  readonly time: string;
  readonly subject: string;
  /** Its headers as published (Nats-Msg-Id, traceparent, dead-letter reasons …), in order. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The payload, base64. */
  readonly data: string;
}

/**
 * Whether a backup keeps a message of a stream kept `unconsumed`: some consumer of that stream
 * reads its subject and had not acknowledged through its sequence when the backup began.
 */
export function isUnconsumed(
  positions: readonly ConsumerPosition[],
  stream: string,
  subject: string,
  seq: number,
): boolean {
  return positions.some(
    (p) => p.stream === stream && seq > p.ackFloor && subjectMatches(p.filterSubject, subject),
  );
}

/** The first sequence a backup reads of a stream: after the lowest ack floor of its consumers. */
export function firstSequenceToKeep(positions: readonly ConsumerPosition[], stream: string): number {
  const floors = positions.filter((p) => p.stream === stream).map((p) => p.ackFloor);
  return floors.length === 0 ? 1 : Math.min(...floors) + 1;
}

/** Every durable consumer's position now; a consumer not created yet stands at 0. Read before the database is dumped. */
export async function readConsumerPositions(jsm: JetStreamManager): Promise<ConsumerPosition[]> {
  return Promise.all(
    Object.values(Consumers).map(async (spec) => {
      const info = await jsm.consumers
        .info(spec.stream.name, spec.durable)
        .catch((error: unknown) => (isJetStreamNotFound(error) ? null : Promise.reject(error)));
      return {
        stream: spec.stream.name,
        durable: spec.durable,
        filterSubject: spec.filterSubject,
        ackFloor: info?.ack_floor.stream_seq ?? 0,
      };
    }),
  );
}

function backedUp(stream: string, m: JsMsg): BackedUpMessage {
  const headers: Array<[string, string]> = [];
  for (const key of m.headers?.keys() ?? [])
    for (const value of m.headers!.values(key)) headers.push([key, value]);
  return {
    stream,
    seq: m.seq,
    time: m.time.toISOString(),
    subject: m.subject,
    headers,
    data: Buffer.from(m.data).toString('base64'),
  };
}

/**
 * Reads what a backup keeps of each stream (`STREAM_BACKUP_SCOPE`), in stream order, up to the
 * stream's last message when its read began, handing each message to `keep`. Read after the
 * database was dumped, from positions read before it: a message acknowledged in between is both in
 * the dump and here, and a restore hands it to its consumer again, which changes nothing (every
 * handler is idempotent); none is in neither. Returns how many were kept per stream.
 */
export async function exportStreams(
  nc: NatsConnection,
  positions: readonly ConsumerPosition[],
  keep: (message: BackedUpMessage) => Promise<void>,
): Promise<Record<string, number>> {
  const jsm = await jetstreamManager(nc);
  const js = jetstream(nc);
  const kept: Record<string, number> = {};
  for (const spec of ALL_STREAMS) {
    const scope = STREAM_BACKUP_SCOPE[spec.name];
    if (scope === 'derived') continue;
    kept[spec.name] = 0;
    const info = await jsm.streams
      .info(spec.name)
      .catch((error: unknown) => (isJetStreamNotFound(error) ? null : Promise.reject(error)));
    if (!info || info.state.messages === 0) continue;
    const from = Math.max(
      info.state.first_seq,
      scope === 'all' ? info.state.first_seq : firstSequenceToKeep(positions, spec.name),
    );
    const last = info.state.last_seq;
    if (from > last) continue;
    const reader = await js.consumers.get(spec.name, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: from,
    });
    for (let done = false; !done;) {
      let got = 0;
      for await (const m of await reader.fetch({ max_messages: 500, expires: 2000 })) {
        got++;
        if (m.seq > last) {
          done = true;
          break;
        }
        if (scope === 'all' || isUnconsumed(positions, spec.name, m.subject, m.seq)) {
          await keep(backedUp(spec.name, m));
          kept[spec.name]++;
        }
        if (m.seq === last || m.info.pending === 0) {
          done = true;
          break;
        }
      }
      if (got === 0) done = true;
    }
    await reader.delete().catch(() => undefined);
  }
  return kept;
}

/**
 * Creates the streams (as the services would, `replicas` each) and publishes every backed-up
 * message again on its subject with its headers, in order, each PubAck awaited; the services'
 * durable consumers then deliver them (they read a stream from its start). The Nats-Msg-Id
 * header goes with it, so a message restored twice within the duplicate window is stored once.
 */
export async function restoreStreams(
  nc: NatsConnection,
  messages: AsyncIterable<BackedUpMessage>,
  replicas: number,
): Promise<Record<string, number>> {
  const jsm = await jetstreamManager(nc);
  const js = jetstream(nc);
  const provisioner = new TopologyProvisioner();
  for (const spec of ALL_STREAMS as readonly StreamSpec[])
    await provisioner.ensureStream(jsm, spec, replicas);
  const published: Record<string, number> = {};
  for await (const message of messages) {
    const h = natsHeaders();
    for (const [key, value] of message.headers) h.append(key, value);
    const ack = await js.publish(message.subject, Buffer.from(message.data, 'base64'), { headers: h });
    published[ack.stream] = (published[ack.stream] ?? 0) + 1;
  }
  return published;
}
