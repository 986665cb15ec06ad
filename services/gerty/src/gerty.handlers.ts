import { Controller } from '@nestjs/common';
import { Rpcs, type CompleteRequest, type EmbedRequest, type SetTenantKeyRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { CompleteUseCase } from './completion/complete.use-case';
import { EmbedTextsUseCase } from './embedding/embed-texts.use-case';
import { PutTenantKeyUseCase } from './keys/put-tenant-key.use-case';
import { ListModelsUseCase } from './models/list-models.use-case';

/** Gerty's RPCs: the one door to every model. */
@Controller()
export class GertyHandlers {
  constructor(
    private readonly embedTexts: EmbedTextsUseCase,
    private readonly completion: CompleteUseCase,
    private readonly listModels: ListModelsUseCase,
    private readonly putTenantKey: PutTenantKeyUseCase,
  ) {}

  @HandleRpc(Rpcs.gertyEmbed)
  embed(request: EmbedRequest, ctx: RpcCallContext) {
    return this.embedTexts.embed(request, ctx.signal);
  }

  @HandleRpc(Rpcs.gertyComplete)
  complete(request: CompleteRequest, ctx: RpcCallContext) {
    return this.completion.complete(request, ctx.signal);
  }

  @HandleRpc(Rpcs.gertyModelsList)
  async models() {
    return this.listModels.list();
  }

  @HandleRpc(Rpcs.gertyKeysPut)
  async setTenantKey(request: SetTenantKeyRequest, ctx: RpcCallContext) {
    return this.putTenantKey.put(ctx.tenantId, request);
  }
}
