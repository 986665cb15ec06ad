import { Inject, Injectable } from '@nestjs/common';
import type { BeingRecallRequest, RecallMemoryRequest, SearchMemoryRequest } from '@engram/contracts';
import { GertyClient } from '@engram/gerty-client';
import { TenantTransactions, type EntityManager } from '@engram/store';
import type { StoredNode } from '../being/scene-node';
import { PATROL_CONFIG, type PatrolConfig } from '../patrol.config';
import { DEFAULT_SEARCH_LIMIT } from './keyword-patterns';
import { BeingRecallRepository } from './being-recall.repository';

/**
 * The recall tools of a being (mem.rpc.being.recall, .clusters.recall, .nodes.search): what a
 * message brings back (by its vector, from Gerty), a cluster's scenes, scenes by keywords. What
 * they return counts as recalled, in the same tenant transaction: its reactivation count rises,
 * which keeps it alive and revives it when dead.
 */
@Injectable()
export class RecallScenesUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly recalls: BeingRecallRepository,
    private readonly gerty: GertyClient,
    @Inject(PATROL_CONFIG) private readonly config: PatrolConfig,
  ) {}

  /** The scenes the message brings back, most similar first. */
  async recall(tenantId: string, request: BeingRecallRequest): Promise<StoredNode[]> {
    const { vectors, model } = await this.gerty.embed([request.message], {
      tenantId,
      timeoutMs: this.config.PATROL_RECALL_TIMEOUT_MS,
    });
    return this.run(tenantId, (m) => this.recalls.recall(m, request.agent, vectors[0]!, model));
  }

  /** Every scene of the cluster; null when the being has no such cluster. */
  recallCluster(tenantId: string, request: RecallMemoryRequest): Promise<StoredNode[] | null> {
    return this.run(tenantId, (m) => this.recalls.recallCluster(m, request.agent, request.clusterId));
  }

  /** The scenes holding any (or every) keyword. */
  search(tenantId: string, request: SearchMemoryRequest): Promise<StoredNode[]> {
    return this.run(tenantId, (m) =>
      this.recalls.search(
        m,
        request.agent,
        request.keywords.map((k) => k.trim()),
        request.match === 'and' ? 'and' : 'or',
        request.limit || DEFAULT_SEARCH_LIMIT,
      ),
    );
  }

  /** `work` in a tenant transaction set up for the recall tools. */
  private run<T>(tenantId: string, work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.transactions.run(tenantId, async (m) => {
      await this.recalls.settle(m);
      return work(m);
    });
  }
}
