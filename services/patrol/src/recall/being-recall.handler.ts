import { Controller, Inject } from '@nestjs/common';
import { memoryTag } from '@engram/being';
import {
  Rpcs,
  type BeingRecallRequest,
  type BeingRecallResponseSchema,
  type MessageInitShape,
  type RecallMemoryRequest,
  type SceneNodesResponseSchema,
  type SearchMemoryRequest,
} from '@engram/contracts';
import { GertyClient } from '@engram/gerty-client';
import { HandleRpc, RpcError, type RpcCallContext } from '@engram/messaging';
import { toSceneNode } from '../being/scene-node';
import { PATROL_CONFIG, type PatrolConfig } from '../patrol.config';
import { DEFAULT_SEARCH_LIMIT } from './keyword-patterns';
import { BeingRecallRepository } from './being-recall.repository';

/**
 * The recall tools of a being (mem.rpc.being.recall, recall_memory, search_memory): what a
 * message brings back, a cluster's scenes, scenes by keywords. What they return counts as
 * recalled: its reactivation count rises, which keeps it alive and revives it when dead.
 */
@Controller()
export class BeingRecallHandler {
  constructor(
    private readonly recalls: BeingRecallRepository,
    private readonly gerty: GertyClient,
    @Inject(PATROL_CONFIG) private readonly config: PatrolConfig,
  ) {}

  @HandleRpc(Rpcs.beingRecall)
  async recall(
    request: BeingRecallRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof BeingRecallResponseSchema>> {
    const { vectors, model } = await this.gerty.embed([request.message], {
      tenantId: ctx.tenantId,
      timeoutMs: this.config.PATROL_RECALL_TIMEOUT_MS,
    });
    const rows = await this.recalls.recall(ctx.tenantId, request.agent, vectors[0]!, model);
    const nodes = rows.map(toSceneNode);
    return { text: memoryTag(nodes.map((n) => ({ action: n.action!, feeling: n.feeling || null }))), nodes };
  }

  @HandleRpc(Rpcs.beingRecallMemory)
  async recallMemory(
    request: RecallMemoryRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof SceneNodesResponseSchema>> {
    const rows = await this.recalls.recallCluster(ctx.tenantId, request.agent, request.clusterId);
    if (!rows)
      throw RpcError.notFound(`"${request.agent}" has no cluster ${request.clusterId}`, {
        agent: request.agent,
        clusterId: request.clusterId,
      });
    return { nodes: rows.map(toSceneNode) };
  }

  @HandleRpc(Rpcs.beingSearchMemory)
  async searchMemory(
    request: SearchMemoryRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof SceneNodesResponseSchema>> {
    const rows = await this.recalls.search(
      ctx.tenantId,
      request.agent,
      request.keywords.map((k) => k.trim()),
      request.match === 'and' ? 'and' : 'or',
      request.limit || DEFAULT_SEARCH_LIMIT,
    );
    return { nodes: rows.map(toSceneNode) };
  }
}
