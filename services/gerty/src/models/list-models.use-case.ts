import { Injectable } from '@nestjs/common';
import type { ListModelsResponseSchema, MessageInitShape } from '@engram/contracts';
import { ModelRouter } from './model-router';

/** gerty.rpc.models.list: the models this Gerty serves, as configured, and the defaults of each task. */
@Injectable()
export class ListModelsUseCase {
  constructor(private readonly router: ModelRouter) {}

  list(): MessageInitShape<typeof ListModelsResponseSchema> {
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
}
