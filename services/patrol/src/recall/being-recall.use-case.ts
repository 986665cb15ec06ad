import { Inject, Injectable, Logger } from '@nestjs/common';
import { memoryTag } from '@engram/being';
import type { BeingRecallRequest, BeingRecallResponseSchema, MessageInitShape } from '@engram/contracts';
import { PATROL_CONFIG, type PatrolConfig } from '../patrol.config';
import { toSceneNode } from '../being/scene-node';
import { BeingRecallRepository } from './being-recall.repository';
import { RecallEmbeddingGateway } from './recall-embedding.gateway';

/**
 * What a message brings back to a being: the message's vector from Gerty, then the being's
 * most similar scenes (at most 3, at cosine 0.35 or more, by the same model, dead ones too),
 * each counted as recalled; their actions and feelings in a memory tag, shuffled. Nothing
 * similar enough answers "" and changes nothing.
 */
@Injectable()
export class BeingRecallUseCase {
  private readonly logger = new Logger(BeingRecallUseCase.name);

  constructor(
    private readonly embeddings: RecallEmbeddingGateway,
    private readonly nodes: BeingRecallRepository,
    @Inject(PATROL_CONFIG) private readonly config: PatrolConfig,
  ) {}

  async recall(
    tenantId: string,
    request: BeingRecallRequest,
  ): Promise<MessageInitShape<typeof BeingRecallResponseSchema>> {
    const { vector, model } = await this.embeddings.embed(tenantId, request.message);
    if (vector.length !== this.config.EMBEDDING_DIMENSIONS) {
      // No node holds a vector of another width (the column is EMBEDDING_DIMENSIONS wide).
      this.logger.warn(
        `gerty's model ${model} made a ${vector.length}-d vector; the store holds ${this.config.EMBEDDING_DIMENSIONS}-d: nothing to recall`,
      );
      return { text: '', nodes: [] };
    }
    const nodes = (await this.nodes.similar(tenantId, request.agent, vector, model)).map(toSceneNode);
    return {
      text: memoryTag(nodes.map((n) => ({ action: n.action ?? '', feeling: n.feeling || null }))),
      nodes,
    };
  }
}
