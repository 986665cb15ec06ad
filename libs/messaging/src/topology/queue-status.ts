import {
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { NatsClient } from '../connection/nats.client';
import { errorMessage } from '../consumers/error-message';
import { Consumers, Streams, Subjects } from '@engram/contracts';

/** One durable consumer's backlog, over all tenants (JetStream does not count per tenant). */
export interface QueueStatus {
  /** The durable consumer, e.g. `embedder-messages`. */
  readonly queue: string;
  readonly stream: string;
  /** Not yet delivered (num_pending). */
  readonly pending: number;
  /** Delivered and not yet acknowledged: being worked on or waiting for a retry (num_ack_pending). */
  readonly inFlight: number;
  /** Given up and dead-lettered (messages on mem.deadletter.{stream}.{consumer} still kept by DEADLETTERS). */
  readonly failed: number;
}

export interface QueueReport {
  /** Every durable consumer Engram runs, in the order of the contracts; zeros for one not created yet. */
  readonly queues: readonly QueueStatus[];
  /** Every message DEADLETTERS keeps (30 days), of all consumers and tenants. */
  readonly deadLetters: number;
}

/** JetStream's answer that a stream or consumer does not exist (yet): no worker made it. */
export const isJetStreamNotFound = (error: unknown) =>
  error instanceof JetStreamApiError &&
  (error.code === JetStreamApiCodes.ConsumerNotFound || error.code === JetStreamApiCodes.StreamNotFound);

/**
 * Pending, in flight and dead-lettered messages of every queue, asked of JetStream in
 * parallel. A consumer or the dead-letter stream that does not exist yet (its worker
 * never started) counts zero; any other failure (JetStream unreachable, a timeout)
 * rejects.
 */
export async function readQueueStatus(jsm: JetStreamManager): Promise<QueueReport> {
  const [dead, ...infos] = await Promise.all([
    jsm.streams
      .info(Streams.deadLetters.name, { subjects_filter: Subjects.deadLetterWildcard })
      .catch((error: unknown) => (isJetStreamNotFound(error) ? null : Promise.reject(error))),
    ...Object.values(Consumers).map((spec) =>
      jsm.consumers
        .info(spec.stream.name, spec.durable)
        .catch((error: unknown) => (isJetStreamNotFound(error) ? null : Promise.reject(error))),
    ),
  ]);
  const deadBySubject: Record<string, number> = dead?.state.subjects ?? {};
  const queues = Object.values(Consumers).map((spec, i) => {
    const info = infos[i];
    return {
      queue: spec.durable,
      stream: spec.stream.name,
      pending: info?.num_pending ?? 0,
      inFlight: info?.num_ack_pending ?? 0,
      failed: deadBySubject[Subjects.deadLetter(spec.stream.name, spec.durable)] ?? 0,
    };
  });
  return { queues, deadLetters: dead?.state.messages ?? 0 };
}

/**
 * The queues, or none when JetStream cannot answer within `timeoutMs` (not enabled, unreachable,
 * too slow): a report about memory or the system answers without them rather than failing, and
 * `warn` is told why.
 */
export async function readQueueStatusWithin(
  nats: NatsClient,
  timeoutMs: number,
  warn: (message: string) => void,
): Promise<QueueReport> {
  try {
    const { connection } = await nats.connected();
    const jsm = await jetstreamManager(connection, { timeout: timeoutMs, checkAPI: false });
    return await readQueueStatus(jsm);
  } catch (error) {
    warn(`queue stats unavailable, answering without them: ${errorMessage(error)}`);
    return { queues: [], deadLetters: 0 };
  }
}
