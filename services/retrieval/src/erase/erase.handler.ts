import { Controller } from '@nestjs/common';
import { Rpcs, type EraseRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { EraseMemoryUseCase } from './erase-memory.use-case';

/** mem.rpc.erase.{tenant} */
@Controller()
export class EraseHandler {
  constructor(private readonly eraseMemory: EraseMemoryUseCase) {}

  @HandleRpc(Rpcs.erase)
  erase(request: EraseRequest, ctx: RpcCallContext) {
    return this.eraseMemory.erase(ctx.tenantId, request, ctx.principal);
  }
}
