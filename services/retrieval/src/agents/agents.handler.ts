import { Controller } from '@nestjs/common';
import { Rpcs, type ListAgentsRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { ListAgentsUseCase } from './list-agents.use-case';

/** mem.rpc.agents.list.{tenant} */
@Controller()
export class AgentsHandler {
  constructor(private readonly listAgents: ListAgentsUseCase) {}

  @HandleRpc(Rpcs.agentsList)
  list(request: ListAgentsRequest, ctx: RpcCallContext) {
    return this.listAgents.list(ctx.tenantId, request);
  }
}
