import { Controller } from '@nestjs/common';
import { Rpcs, type GetFactRequest, type ListFactsRequest, type UpdateFactRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { GetFactUseCase } from './get-fact.use-case';
import { ListFactsUseCase } from './list-facts.use-case';
import { UpdateFactUseCase } from './update-fact.use-case';

/** mem.rpc.facts.list / get / update.{tenant} */
@Controller()
export class FactsHandler {
  constructor(
    private readonly listFacts: ListFactsUseCase,
    private readonly getFact: GetFactUseCase,
    private readonly updateFact: UpdateFactUseCase,
  ) {}

  @HandleRpc(Rpcs.factsList)
  list(request: ListFactsRequest, ctx: RpcCallContext) {
    return this.listFacts.list(ctx.tenantId, request);
  }

  @HandleRpc(Rpcs.factsGet)
  get(request: GetFactRequest, ctx: RpcCallContext) {
    return this.getFact.get(ctx.tenantId, request);
  }

  @HandleRpc(Rpcs.factsUpdate)
  update(request: UpdateFactRequest, ctx: RpcCallContext) {
    return this.updateFact.update(ctx.tenantId, request);
  }
}
