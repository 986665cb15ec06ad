import { Controller } from '@nestjs/common';
import { Rpcs, type RecallRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { RecallMemoryUseCase } from './recall-memory.use-case';

/** mem.rpc.recall.{tenant} */
@Controller()
export class RecallHandler {
  constructor(private readonly recallMemory: RecallMemoryUseCase) {}

  @HandleRpc(Rpcs.recall)
  recall(request: RecallRequest, ctx: RpcCallContext) {
    return this.recallMemory.recall(ctx.tenantId, request);
  }
}
