import { Inject, Injectable } from '@nestjs/common';
import {
  ContractViolationError,
  decodeMessage,
  isValidToken,
  MsgIds,
  Subjects,
  TurnEventSchema,
  type TurnEvent,
} from '@engram/contracts';
import { NatsClient, RpcError } from '@engram/messaging';
import { normalizeTurn } from '@engram/memory-core';
import { natsHandles } from '../nats-handles';
import { API_CONFIG, type ApiConfig } from '../api.config';
import { ApiProblem, type FieldProblem } from '../http/problem';

/** Where a published turn is durable, and whether it was there already. */
export interface TurnAccepted {
  readonly stream: string;
  readonly seq: number;
  readonly duplicate: boolean;
}

/** A problem of normalizeTurn ("messages[0].role: …") as a field and what is wrong with it. */
function fieldProblem(problem: string): FieldProblem {
  const colon = problem.indexOf(': ');
  return colon < 0
    ? { field: '', detail: problem }
    : { field: problem.slice(0, colon), detail: problem.slice(colon + 2) };
}

/**
 * Publishes turns for a tenant, as a runtime does over NATS. Each is checked first as ingest will
 * check it (a bad turn is refused now, not dead-lettered later) and published under the msg id
 * of its idempotency key (its turn id by default), so publishing it again stores nothing twice.
 */
@Injectable()
export class TurnPublisher {
  constructor(
    private readonly nats: NatsClient,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
  ) {}

  /** Checks and publishes a turn given as JSON; ApiProblem INVALID_ARGUMENT names each bad field. */
  async publish(
    tenantId: string,
    agent: string,
    json: unknown,
    idempotencyKey?: string,
  ): Promise<TurnAccepted> {
    if (!isValidToken(agent))
      throw new ApiProblem('INVALID_ARGUMENT', 'invalid turn', {}, [
        { field: 'agent', detail: 'the agent must be 1-64 letters, digits, "_" or "-"' },
      ]);
    const bytes = Buffer.from(JSON.stringify(json ?? {}));
    let event: TurnEvent;
    try {
      event = decodeMessage(TurnEventSchema, bytes, { strict: true });
    } catch (error) {
      if (error instanceof ContractViolationError)
        throw new ApiProblem('INVALID_ARGUMENT', `invalid turn: ${error.message}`);
      throw error;
    }
    const subject = Subjects.turn(tenantId, agent);
    const checked = normalizeTurn(
      event,
      { subject, streamSequence: 0, receivedAt: new Date() },
      {
        maxMessagesPerTurn: this.config.INGEST_MAX_MESSAGES_PER_TURN,
        maxContentChars: this.config.INGEST_MAX_CONTENT_CHARS,
      },
    );
    if (!checked.ok)
      throw new ApiProblem('INVALID_ARGUMENT', checked.reason, {}, checked.problems.map(fieldProblem));
    const { js } = await natsHandles(this.nats);
    const msgID = MsgIds.turn(tenantId, agent, event.sessionKey, idempotencyKey?.trim() || event.turnId);
    try {
      const ack = await js.publish(subject, bytes, { msgID });
      return { stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate };
    } catch (error) {
      throw new RpcError(
        'UNAVAILABLE',
        `JetStream did not take the turn (${(error as Error).message}); retry it`,
      );
    }
  }
}
