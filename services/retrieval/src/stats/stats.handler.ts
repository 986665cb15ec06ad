import { Controller } from '@nestjs/common';
import { Rpcs, type StatsRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { MemoryStatsUseCase } from './memory-stats.use-case';

/** mem.rpc.stats.{tenant} */
@Controller()
export class StatsHandler {
  constructor(private readonly memoryStats: MemoryStatsUseCase) {}

  @HandleRpc(Rpcs.stats)
  stats(request: StatsRequest, ctx: RpcCallContext) {
    return this.memoryStats.stats(ctx.tenantId, request);
  }
}
