import { Controller } from '@nestjs/common';
import { Rpcs, type SummaryTreeRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { ListSummariesUseCase } from './list-summaries.use-case';

/** mem.rpc.summaries.list.{tenant} */
@Controller()
export class SummaryTreeHandler {
  constructor(private readonly listSummaries: ListSummariesUseCase) {}

  @HandleRpc(Rpcs.summariesList)
  tree(request: SummaryTreeRequest, ctx: RpcCallContext) {
    return this.listSummaries.list(ctx.tenantId, request);
  }
}
