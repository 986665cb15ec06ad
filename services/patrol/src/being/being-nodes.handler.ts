import { Controller } from '@nestjs/common';
import { Rpcs, type PinNodeRequest } from '@engram/contracts';
import { HandleRpc, RpcError, type RpcCallContext } from '@engram/messaging';
import { PinNodeUseCase } from './pin-node.use-case';
import { toSceneNode, type SceneNodeInit } from './scene-node';

/** mem.rpc.being.nodes.pin.{tenant}: a pinned scene never dies. */
@Controller()
export class BeingNodesHandler {
  constructor(private readonly pinNode: PinNodeUseCase) {}

  @HandleRpc(Rpcs.beingNodesPin)
  async pin(request: PinNodeRequest, ctx: RpcCallContext): Promise<SceneNodeInit> {
    const row = await this.pinNode.pin(ctx.tenantId, request);
    if (!row)
      throw RpcError.notFound(`agent "${request.agent}" has no node ${request.nodeId}`, {
        agent: request.agent,
        nodeId: request.nodeId,
      });
    return toSceneNode(row);
  }
}
