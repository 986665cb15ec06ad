import { Controller } from '@nestjs/common';
import { Rpcs, type SearchRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { SearchMemoryUseCase } from './search-memory.use-case';

/** mem.rpc.search.{tenant} */
@Controller()
export class SearchHandler {
  constructor(private readonly searchMemory: SearchMemoryUseCase) {}

  @HandleRpc(Rpcs.search)
  search(request: SearchRequest, ctx: RpcCallContext) {
    return this.searchMemory.search(ctx.tenantId, request);
  }
}
