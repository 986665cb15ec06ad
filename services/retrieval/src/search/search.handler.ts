import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { Rpcs, type SearchRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { SearchMemoryUseCase } from './search-memory.use-case';

/** mem.rpc.search.{tenant} */
@Controller()
export class SearchHandler {
  constructor(private readonly searchMemory: SearchMemoryUseCase) {}

  @HandleRpc(Rpcs.search)
  search(@Payload() request: SearchRequest, @Ctx() ctx: RpcCallContext) {
    return this.searchMemory.search(ctx.tenantId, request);
  }
}
