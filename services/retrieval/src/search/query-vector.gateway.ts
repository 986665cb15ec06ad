import { Inject, Injectable } from '@nestjs/common';
import { Rpcs } from '@engram/contracts';
import { errorMessage, RpcClient } from '@engram/messaging';
import type { QueryVector } from '@engram/search';
import { RETRIEVAL_CONFIG, type RetrievalConfig } from '../retrieval.config';

/** The query's vector from Gerty, or why there is none (a search then answers from full text). */
@Injectable()
export class QueryVectorGateway {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(RETRIEVAL_CONFIG) private readonly config: RetrievalConfig,
  ) {}

  async embed(text: string, tenantId: string): Promise<QueryVector> {
    try {
      const answer = await this.rpc.call(
        Rpcs.gertyEmbed,
        { texts: [text], tenantId },
        { timeoutMs: this.config.SEARCH_EMBED_TIMEOUT_MS },
      );
      const values = answer.vectors[0]?.values;
      if (!values || values.length !== this.config.EMBEDDING_DIMENSIONS) {
        return {
          vector: null,
          reason: `gerty's model ${answer.model} answered ${values?.length ?? 0}-d vectors; the store holds ${this.config.EMBEDDING_DIMENSIONS}-d`,
        };
      }
      return { vector: values, model: answer.model };
    } catch (error) {
      return { vector: null, reason: `no query vector (gerty: ${errorMessage(error)})` };
    }
  }
}
