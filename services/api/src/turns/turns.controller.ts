import { Body, Controller, Headers, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import type { ApiPrincipal } from '@engram/store';
import { ApiKeyGuard, Principal } from '../auth/api-key.guard';
import { TurnPublisher, type TurnAccepted } from './turn-publisher';

/** `POST /v1/turns/{agent}`: publishes a turn for the key's tenant (see TurnPublisher). */
@Controller('v1/turns')
@UseGuards(ApiKeyGuard)
export class TurnsController {
  constructor(private readonly turns: TurnPublisher) {}

  @Post(':agent')
  @HttpCode(202)
  publish(
    @Principal() principal: ApiPrincipal,
    @Param('agent') agent: string,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<TurnAccepted> {
    return this.turns.publish(principal.tenantId, agent, body, idempotencyKey);
  }
}
