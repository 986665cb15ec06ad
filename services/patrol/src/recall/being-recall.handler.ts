import { Controller } from '@nestjs/common';
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
import { HandleRpc, RpcError, type RpcCallContext } from '@engram/messaging';
import { toSceneNode } from '../being/scene-node';
import { RecallScenesUseCase } from './recall-scenes.use-case';

/**
 * The recall tools of a being (mem.rpc.being.recall, recall_memory, search_memory): what a
 * message brings back, a cluster's scenes, scenes by keywords. What they return counts as
 * recalled: its reactivation count rises, which keeps it alive and revives it when dead.
 */
@Controller()
export class BeingRecallHandler {
  constructor(private readonly recallScenes: RecallScenesUseCase) {}

  @HandleRpc(Rpcs.beingRecall)
  async recall(
    request: BeingRecallRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof BeingRecallResponseSchema>> {
    const nodes = (await this.recallScenes.recall(ctx.tenantId, request)).map(toSceneNode);
    return { text: memoryTag(nodes.map((n) => ({ action: n.action!, feeling: n.feeling || null }))), nodes };
  }

  @HandleRpc(Rpcs.beingClustersRecall)
  async recallMemory(
    request: RecallMemoryRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof SceneNodesResponseSchema>> {
    const rows = await this.recallScenes.recallCluster(ctx.tenantId, request);
    if (!rows)
      throw RpcError.notFound(`"${request.agent}" has no cluster ${request.clusterId}`, {
        agent: request.agent,
        clusterId: request.clusterId,
      });
    return { nodes: rows.map(toSceneNode) };
  }

  @HandleRpc(Rpcs.beingNodesSearch)
  async searchMemory(
    request: SearchMemoryRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof SceneNodesResponseSchema>> {
    return { nodes: (await this.recallScenes.search(ctx.tenantId, request)).map(toSceneNode) };
  }
}
