import { Controller } from '@nestjs/common';
import { Rpcs, type StatsRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { GetStatsUseCase } from './get-stats.use-case';

/** mem.rpc.stats.get.{tenant} */
@Controller()
export class StatsHandler {
  constructor(private readonly getStats: GetStatsUseCase) {}

  @HandleRpc(Rpcs.statsGet)
  stats(request: StatsRequest, ctx: RpcCallContext) {
    return this.getStats.get(ctx.tenantId, request);
  }
}
