import { Injectable } from '@nestjs/common';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import type { JetStreamClient } from '@nats-io/jetstream';
import { DeadLetterSchema, Subjects, create, encodeMessage, timestampFromDate } from '@engram/contracts';
import type { JsonObject } from '@bufbuild/protobuf';
import { counter } from '@engram/platform';

export interface DeadMessage {
  readonly stream: string;
  readonly consumer: string;
  readonly subject: string;
  readonly sequence: number;
  readonly data: Uint8Array;
  readonly headers: MsgHdrs | undefined;
  readonly deliveries: number;
}

export type DeadLetterCause = 'invalid' | 'exhausted';

const deadLetters = counter('engram_dead_letters_total', 'Messages sent to the dead-letter subject', [
  'consumer',
  'cause',
]);

/**
 * Publishes a message that cannot be handled to mem.deadletter.{stream}.{consumer},
 * unchanged, with the reason. De-duplicated by stream sequence, so a message is
 * dead-lettered once even if two replicas (or a retry) try.
 */
@Injectable()
export class DeadLetterPublisher {
  async publish(
    js: JetStreamClient,
    dead: DeadMessage,
    cause: DeadLetterCause,
    reason: string,
    details?: Record<string, unknown>,
  ): Promise<void> {
    const letter = create(DeadLetterSchema, {
      stream: dead.stream,
      consumer: dead.consumer,
      originalSubject: dead.subject,
      originalSequence: BigInt(dead.sequence),
      originalData: dead.data,
      originalHeaders: headerRecord(dead.headers),
      deliveries: dead.deliveries,
      cause,
      reason,
      details: details as JsonObject | undefined,
      deadAt: timestampFromDate(new Date()),
    });
    const h = natsHeaders();
    h.set('Engram-Dead-Letter-Cause', cause);
    h.set('Engram-Dead-Letter-Reason', reason.replace(/[\r\n]+/g, ' ').slice(0, 1000));
    await js.publish(
      Subjects.deadLetter(dead.stream, dead.consumer),
      encodeMessage(DeadLetterSchema, letter),
      {
        msgID: `dlq:${dead.stream}:${dead.sequence}`,
        headers: h,
      },
    );
    deadLetters.inc({ consumer: dead.consumer, cause });
  }
}

function headerRecord(h: MsgHdrs | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  if (!h) return record;
  for (const key of h.keys()) record[key] = h.values(key).join(', ');
  return record;
}
