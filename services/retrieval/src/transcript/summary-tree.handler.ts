import { Controller } from '@nestjs/common';
import { Rpcs, type SummaryTreeRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { SummaryTreeUseCase } from './summary-tree.use-case';

/** mem.rpc.summaries.tree.{tenant} */
@Controller()
export class SummaryTreeHandler {
  constructor(private readonly summaryTree: SummaryTreeUseCase) {}

  @HandleRpc(Rpcs.summariesTree)
  tree(request: SummaryTreeRequest, ctx: RpcCallContext) {
    return this.summaryTree.tree(ctx.tenantId, request);
  }
}
