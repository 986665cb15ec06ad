import { Controller } from '@nestjs/common';
import { Rpcs, type PinNodeRequest } from '@engram/contracts';
import { HandleRpc, RpcError, type RpcCallContext } from '@engram/messaging';
import { BeingNodesRepository } from './being-nodes.repository';
import { toSceneNode, type SceneNodeInit } from './scene-node';

/** mem.rpc.being.node.pin.{tenant}: a pinned scene never dies. */
@Controller()
export class BeingNodesHandler {
  constructor(private readonly nodes: BeingNodesRepository) {}

  @HandleRpc(Rpcs.beingNodePin)
  async pin(request: PinNodeRequest, ctx: RpcCallContext): Promise<SceneNodeInit> {
    const row = await this.nodes.pin(ctx.tenantId, request.agent, request.nodeId, request.pinned);
    if (!row)
      throw RpcError.notFound(`agent "${request.agent}" has no node ${request.nodeId}`, {
        agent: request.agent,
        nodeId: request.nodeId,
      });
    return toSceneNode(row);
  }
}
