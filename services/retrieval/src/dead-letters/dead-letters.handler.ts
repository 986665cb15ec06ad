import { Controller } from '@nestjs/common';
import {
  DEFAULT_DEAD_LETTERS,
  Rpcs,
  type ListDeadLettersRequest,
  type RedriveDeadLetterRequest,
} from '@engram/contracts';
import { DeadLetterBox, HandleRpc, type RpcCallContext } from '@engram/messaging';

/** mem.rpc.deadletters.list.{tenant} and mem.rpc.deadletters.redrive.{tenant} */
@Controller()
export class DeadLettersHandler {
  constructor(private readonly box: DeadLetterBox) {}

  @HandleRpc(Rpcs.deadLettersList)
  async list(request: ListDeadLettersRequest, ctx: RpcCallContext) {
    const listed = await this.box.list(ctx.tenantId, request.limit || DEFAULT_DEAD_LETTERS);
    return {
      letters: listed.map(({ sequence, letter, payload }) => ({
        sequence,
        stream: letter.stream,
        consumer: letter.consumer,
        originalSubject: letter.originalSubject,
        cause: letter.cause,
        reason: letter.reason,
        deliveries: letter.deliveries,
        deadAt: letter.deadAt,
        payload,
        details: letter.details,
      })),
    };
  }

  @HandleRpc(Rpcs.deadLettersRedrive)
  redrive(request: RedriveDeadLetterRequest, ctx: RpcCallContext) {
    return this.box.redrive(ctx.tenantId, request.sequence);
  }
}
