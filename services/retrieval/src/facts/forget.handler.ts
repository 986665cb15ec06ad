import { Controller } from '@nestjs/common';
import { Rpcs, type ForgetRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { ForgetFactUseCase } from './forget-fact.use-case';

/** mem.rpc.forget.{tenant} */
@Controller()
export class ForgetHandler {
  constructor(private readonly forgetFact: ForgetFactUseCase) {}

  @HandleRpc(Rpcs.forget)
  forget(request: ForgetRequest, ctx: RpcCallContext) {
    return this.forgetFact.forget(ctx.tenantId, request);
  }
}
