import { Inject, Injectable } from '@nestjs/common';
import { GertyClient } from '@engram/gerty-client';
import { errorMessage } from '@engram/messaging';
import type { QueryVector } from '@engram/search';
import { RETRIEVAL_CONFIG, type RetrievalConfig } from '../retrieval.config';

/**
 * The query's vector from Gerty, or why there is none: a search then answers from full
 * text, so Gerty down or late (SEARCH_EMBED_TIMEOUT_MS) is a reason, never a failure.
 */
@Injectable()
export class QueryVectorGateway {
  constructor(
    private readonly gerty: GertyClient,
    @Inject(RETRIEVAL_CONFIG) private readonly config: RetrievalConfig,
  ) {}

  async embed(text: string, tenantId: string): Promise<QueryVector> {
    try {
      const { vectors, model } = await this.gerty.embed([text], {
        tenantId,
        timeoutMs: this.config.SEARCH_EMBED_TIMEOUT_MS,
      });
      const values = vectors[0]!;
      if (values.length !== this.config.EMBEDDING_DIMENSIONS) {
        return {
          vector: null,
          reason: `gerty's model ${model} answered ${values.length}-d vectors; the store holds ${this.config.EMBEDDING_DIMENSIONS}-d`,
        };
      }
      return { vector: values, model };
    } catch (error) {
      return { vector: null, reason: `no query vector (gerty: ${errorMessage(error)})` };
    }
  }
}
