import { Controller } from '@nestjs/common';
import { Rpcs, type ListStateRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { ListStateUseCase } from './list-state.use-case';

/** mem.rpc.state.list.{tenant} */
@Controller()
export class StateHandler {
  constructor(private readonly listState: ListStateUseCase) {}

  @HandleRpc(Rpcs.stateList)
  list(request: ListStateRequest, ctx: RpcCallContext) {
    return this.listState.list(ctx.tenantId, request);
  }
}
