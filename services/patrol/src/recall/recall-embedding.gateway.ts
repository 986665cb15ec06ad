import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { GertyClient } from '@engram/gerty-client';
import { PATROL_CONFIG, type PatrolConfig } from '../patrol.config';

/** A message's vector and the model that made it. */
export interface MessageVector {
  readonly vector: number[];
  readonly model: string;
}

/**
 * Gerty as recall uses it: the vector of what was just said, by Gerty's default embedding model
 * (the tenant's own key for a remote one), waiting at most PATROL_RECALL_TIMEOUT_MS. Gerty down
 * or late fails the recall with Gerty's error (UNAVAILABLE, DEADLINE_EXCEEDED …): a being is
 * told its memory did not answer rather than that it remembers nothing. The service is ready
 * only while Gerty answers.
 */
@Injectable()
export class RecallEmbeddingGateway implements OnModuleInit {
  constructor(
    private readonly gerty: GertyClient,
    @Inject(PATROL_CONFIG) private readonly config: PatrolConfig,
  ) {}

  onModuleInit(): void {
    this.gerty.registerReadiness();
  }

  async embed(tenantId: string, message: string): Promise<MessageVector> {
    const { vectors, model } = await this.gerty.embed([message], {
      tenantId,
      timeoutMs: this.config.PATROL_RECALL_TIMEOUT_MS,
    });
    return { vector: vectors[0]!, model };
  }
}
