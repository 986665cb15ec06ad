import { Controller } from '@nestjs/common';
import {
  Rpcs,
  type BeingRecallRequest,
  type BeingRecallResponseSchema,
  type MessageInitShape,
  type RecallMemoryRequest,
  type SceneNodesResponseSchema,
  type SearchMatch,
  type SearchMemoryRequest,
} from '@engram/contracts';
import { HandleRpc, RpcError, type RpcCallContext } from '@engram/messaging';
import { toSceneNode } from '../being/scene-node';
import { BeingRecallRepository } from './being-recall.repository';
import { BeingRecallUseCase } from './being-recall.use-case';
import { DEFAULT_SEARCH_LIMIT, keywordSearch } from './keyword-patterns';

type SceneNodesInit = MessageInitShape<typeof SceneNodesResponseSchema>;

/**
 * mem.rpc.being.recall, .recall_memory and .search_memory (each .{tenant}): a being's recall
 * tools. Each counts what it answers as recalled (dead scenes found by cluster or keyword
 * count double), which is how faded scenes come back.
 */
@Controller()
export class BeingRecallHandler {
  constructor(
    private readonly recallUseCase: BeingRecallUseCase,
    private readonly nodes: BeingRecallRepository,
  ) {}

  @HandleRpc(Rpcs.beingRecall)
  recall(
    request: BeingRecallRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof BeingRecallResponseSchema>> {
    return this.recallUseCase.recall(ctx.tenantId, request);
  }

  @HandleRpc(Rpcs.beingRecallMemory)
  async recallMemory(request: RecallMemoryRequest, ctx: RpcCallContext): Promise<SceneNodesInit> {
    const rows = await this.nodes.cluster(ctx.tenantId, request.agent, request.clusterId);
    if (!rows)
      throw RpcError.notFound(`agent "${request.agent}" has no cluster ${request.clusterId}`, {
        agent: request.agent,
        clusterId: request.clusterId,
      });
    return { nodes: rows.map(toSceneNode) };
  }

  @HandleRpc(Rpcs.beingSearchMemory)
  async searchMemory(request: SearchMemoryRequest, ctx: RpcCallContext): Promise<SceneNodesInit> {
    const { patterns, atLeast } = keywordSearch(request.keywords, request.match as SearchMatch | '');
    const rows = await this.nodes.search(
      ctx.tenantId,
      request.agent,
      patterns,
      atLeast,
      request.limit || DEFAULT_SEARCH_LIMIT,
    );
    return { nodes: rows.map(toSceneNode) };
  }
}
