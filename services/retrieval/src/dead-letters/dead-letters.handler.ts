import { Controller } from '@nestjs/common';
import { Rpcs, type ListDeadLettersRequest, type RedriveDeadLetterRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { ListDeadLettersUseCase } from './list-dead-letters.use-case';
import { RedriveDeadLetterUseCase } from './redrive-dead-letter.use-case';

/** mem.rpc.deadletters.list.{tenant} and mem.rpc.deadletters.redrive.{tenant} */
@Controller()
export class DeadLettersHandler {
  constructor(
    private readonly listDeadLetters: ListDeadLettersUseCase,
    private readonly redriveDeadLetter: RedriveDeadLetterUseCase,
  ) {}

  @HandleRpc(Rpcs.deadLettersList)
  list(request: ListDeadLettersRequest, ctx: RpcCallContext) {
    return this.listDeadLetters.list(ctx.tenantId, request);
  }

  @HandleRpc(Rpcs.deadLettersRedrive)
  redrive(request: RedriveDeadLetterRequest, ctx: RpcCallContext) {
    return this.redriveDeadLetter.redrive(ctx.tenantId, request);
  }
}
