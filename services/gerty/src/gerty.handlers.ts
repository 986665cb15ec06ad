import { Controller } from '@nestjs/common';
import { Rpcs, type CompleteRequest, type EmbedRequest, type SetTenantKeyRequest } from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { CompleteUseCase } from './completion/complete.use-case';
import { EmbedTextsUseCase } from './embedding/embed-texts.use-case';
import { TenantKeysService } from './keys/tenant-keys.service';
import { ModelRouter } from './models/model-router';

/** Gerty's RPCs: the one door to every model. */
@Controller()
export class GertyHandlers {
  constructor(
    private readonly embedTexts: EmbedTextsUseCase,
    private readonly completion: CompleteUseCase,
    private readonly router: ModelRouter,
    private readonly keys: TenantKeysService,
  ) {}

  @HandleRpc(Rpcs.gertyEmbed)
  embed(request: EmbedRequest, ctx: RpcCallContext) {
    return this.embedTexts.execute(request, ctx.signal);
  }

  @HandleRpc(Rpcs.gertyComplete)
  complete(request: CompleteRequest, ctx: RpcCallContext) {
    return this.completion.execute(request, ctx.signal);
  }

  @HandleRpc(Rpcs.gertyModels)
  async models() {
    const defaults = this.router.defaults;
    return {
      defaultEmbeddingModel: defaults.embedding,
      defaultCompletionModel: defaults.completion,
      models: this.router.all().map(({ definition, provider }) => ({
        name: definition.name,
        provider: definition.provider,
        modelId: definition.embeds ? provider.modelId : (provider.completionModelId ?? provider.modelId),
        embeds: definition.embeds,
        completes: definition.completes,
        dimensions: provider.dimensions ?? 0,
        concurrency: definition.concurrency,
        maxQueued: definition.maxQueued,
      })),
    };
  }

  @HandleRpc(Rpcs.gertySetTenantKey)
  async setTenantKey(request: SetTenantKeyRequest, ctx: RpcCallContext) {
    const { definition } = this.router.named(request.model);
    await this.keys.store(ctx.tenantId, definition, request.apiKey);
    return { model: definition.name, stored: request.apiKey !== '' };
  }
}
