import { Controller } from '@nestjs/common';
import { Rpcs, type ExpandRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { ExpandMemoryUseCase } from './expand-memory.use-case';

/** mem.rpc.expand.{tenant} */
@Controller()
export class ExpandHandler {
  constructor(private readonly expandMemory: ExpandMemoryUseCase) {}

  @HandleRpc(Rpcs.expand)
  expand(request: ExpandRequest, ctx: RpcCallContext) {
    return this.expandMemory.expand(ctx.tenantId, request);
  }
}
