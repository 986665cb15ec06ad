import { Injectable } from '@nestjs/common';
import type { EmbedRequest, EmbedResponseSchema, MessageInitShape } from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import { counter } from '@engram/platform';
import { TenantKeysService } from '../keys/tenant-keys.service';
import { toRpcError } from '../models/inference-failure';
import { ModelRouter } from '../models/model-router';

const embedded = counter('engram_gerty_texts_embedded_total', 'Texts embedded, per model', ['model']);

/** gerty.rpc.embed: vectors for a batch of texts, from the named or the default embedding model. */
@Injectable()
export class EmbedTextsUseCase {
  constructor(
    private readonly router: ModelRouter,
    private readonly keys: TenantKeysService,
  ) {}

  async embed(
    request: EmbedRequest,
    signal: AbortSignal,
  ): Promise<MessageInitShape<typeof EmbedResponseSchema>> {
    const route = this.router.resolve(request.model, 'embed');
    const { provider, definition } = route;
    if (request.texts.length === 0)
      return { vectors: [], model: provider.modelId, dimensions: provider.dimensions ?? 0 };
    const apiKey = await this.keys.keyFor(definition, request.tenantId, '');
    try {
      const result = await route.admission.run(() =>
        provider.embed(request.texts, { signal, ...(apiKey && { apiKey }) }),
      );
      if (provider.dimensions !== undefined && result.dimensions !== provider.dimensions) {
        throw new RpcError(
          'FAILED_PRECONDITION',
          `model ${definition.name} answered ${result.dimensions}-d vectors; it is configured for ${provider.dimensions}`,
        );
      }
      embedded.inc({ model: provider.modelId }, request.texts.length);
      return {
        vectors: result.vectors.map((v) => ({ values: Array.from(v) })),
        model: provider.modelId,
        dimensions: result.dimensions,
      };
    } catch (error) {
      throw toRpcError(error, definition.name);
    }
  }
}
