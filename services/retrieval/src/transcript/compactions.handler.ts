import { Controller } from '@nestjs/common';
import { Rpcs, type ListCompactionsRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { ListCompactionsUseCase } from './list-compactions.use-case';

/** mem.rpc.compactions.list.{tenant} */
@Controller()
export class CompactionsHandler {
  constructor(private readonly listCompactions: ListCompactionsUseCase) {}

  @HandleRpc(Rpcs.compactionsList)
  list(request: ListCompactionsRequest, ctx: RpcCallContext) {
    return this.listCompactions.list(ctx.tenantId, request);
  }
}
