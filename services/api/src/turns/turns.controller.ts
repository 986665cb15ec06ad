import { Body, Controller, Headers, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import {
  ContractViolationError,
  decodeMessage,
  isValidToken,
  MsgIds,
  Subjects,
  TurnEventSchema,
} from '@engram/contracts';
import { NatsClient, RpcError } from '@engram/messaging';
import { normalizeTurn } from '@engram/memory-core';
import type { ApiPrincipal } from '@engram/store';
import { API_CONFIG, type ApiConfig } from '../api.config';
import { ApiKeyGuard, Principal } from '../auth/api-key.guard';
import { ApiProblem, type FieldProblem } from '../http/problem';

/** What POST /v1/turns/{agent} answers: where the turn is durable, and whether it was there already. */
export interface TurnAccepted {
  readonly stream: string;
  readonly seq: number;
  readonly duplicate: boolean;
}

/** A problem of normalizeTurn ("messages.0.role: …") as a field and what is wrong with it. */
function fieldProblem(problem: string): FieldProblem {
  const colon = problem.indexOf(': ');
  return colon < 0
    ? { field: '', detail: problem }
    : { field: problem.slice(0, colon), detail: problem.slice(colon + 2) };
}

/**
 * `POST /v1/turns/{agent}`: publishes a turn for the key's tenant, as a runtime does over NATS.
 * It is checked first as ingest will check it (a bad turn is a 400 here, not a dead letter
 * later), and published under the msg id of its Idempotency-Key (the turn id by default), so
 * sending it again is acknowledged as a duplicate and stored once.
 */
@Controller('v1/turns')
@UseGuards(ApiKeyGuard)
export class TurnsController {
  constructor(
    private readonly nats: NatsClient,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
  ) {}

  @Post(':agent')
  @HttpCode(202)
  async publish(
    @Principal() principal: ApiPrincipal,
    @Param('agent') agent: string,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<TurnAccepted> {
    const { tenantId } = principal;
    if (!isValidToken(agent))
      throw new ApiProblem('INVALID_ARGUMENT', 'invalid turn', {}, [
        { field: 'agent', detail: 'the agent must be 1-64 letters, digits, "_" or "-"' },
      ]);
    const bytes = Buffer.from(JSON.stringify(body ?? {}));
    let event;
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
    let js;
    try {
      ({ js } = await this.nats.connected());
    } catch {
      throw new RpcError('UNAVAILABLE', 'NATS is not reachable from the api; retry shortly');
    }
    const msgID = MsgIds.turn(tenantId, agent, idempotencyKey?.trim() || event.turnId);
    let ack;
    try {
      ack = await js.publish(subject, bytes, { msgID });
    } catch (error) {
      throw new RpcError(
        'UNAVAILABLE',
        `JetStream did not take the turn (${(error as Error).message}); retry it`,
      );
    }
    return { stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate };
  }
}
