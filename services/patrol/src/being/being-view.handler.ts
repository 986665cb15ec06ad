import { Controller } from '@nestjs/common';
import {
  Rpcs,
  timestampFromDate,
  type JournalRequest,
  type JournalResponseSchema,
  type ListNodesRequest,
  type MessageInitShape,
  type NodeHistoryRequest,
  type NodeHistoryResponseSchema,
  type SceneNodesResponseSchema,
} from '@engram/contracts';
import { HandleRpc, RpcError, type RpcCallContext } from '@engram/messaging';
import { BeingViewRepository } from './being-view.repository';
import { toSceneNode } from './scene-node';

/** Nodes a nodes.list answers when the request names no limit. */
export const DEFAULT_NODES_LIMIT = 100;
/** Diary days a journal answers when the request names no limit. */
export const DEFAULT_DIARY_LIMIT = 30;

/**
 * mem.rpc.being.nodes.list, .node.history and .journal (each .{tenant}): a being's memory
 * looked at from outside (the dashboard), changing nothing — no node is activated or revived.
 */
@Controller()
export class BeingViewHandler {
  constructor(private readonly view: BeingViewRepository) {}

  @HandleRpc(Rpcs.beingNodesList)
  async nodes(
    request: ListNodesRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof SceneNodesResponseSchema>> {
    const rows = await this.view.nodes(ctx.tenantId, request.agent, {
      clusterId: request.clusterId || null,
      statuses: request.statuses,
      limit: request.limit || DEFAULT_NODES_LIMIT,
      nodeIds: request.nodeIds,
    });
    return { nodes: rows.map(toSceneNode) };
  }

  @HandleRpc(Rpcs.beingNodesHistoryGet)
  async history(
    request: NodeHistoryRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof NodeHistoryResponseSchema>> {
    const rows = await this.view.history(ctx.tenantId, request.agent, request.nodeId);
    if (!rows)
      throw RpcError.notFound(`agent "${request.agent}" has no node ${request.nodeId}`, {
        agent: request.agent,
        nodeId: request.nodeId,
      });
    return {
      points: rows.map((r) => ({
        runId: r.run_id,
        step: r.step,
        importance: Number(r.importance),
        effectiveImportance: Number(r.effective_importance),
        status: r.status,
        recordedAt: timestampFromDate(r.recorded_at),
      })),
    };
  }

  @HandleRpc(Rpcs.beingJournalGet)
  async journal(
    request: JournalRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof JournalResponseSchema>> {
    const { diary, thinkNotes } = await this.view.journal(
      ctx.tenantId,
      request.agent,
      request.limit || DEFAULT_DIARY_LIMIT,
    );
    return {
      diary: diary.map((d) => ({
        day: d.day,
        content: d.content,
        updatedAt: timestampFromDate(d.updated_at),
      })),
      thinkNotes: thinkNotes.map((t) => ({
        id: t.id,
        content: t.content,
        runId: t.run_id ?? '',
        createdAt: timestampFromDate(t.created_at),
      })),
    };
  }
}
