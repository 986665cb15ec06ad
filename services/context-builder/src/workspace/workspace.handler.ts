import { Controller } from '@nestjs/common';
import {
  Rpcs,
  type MessageInitShape,
  type PutWorkspaceRequest,
  type PutWorkspaceResponseSchema,
} from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { PutWorkspaceUseCase } from './put-workspace.use-case';

/** mem.rpc.workspace.put.{tenant}: an agent's workspace documents (SOUL.md … and daily notes). */
@Controller()
export class WorkspaceHandler {
  constructor(private readonly putWorkspace: PutWorkspaceUseCase) {}

  @HandleRpc(Rpcs.workspacePut)
  put(
    request: PutWorkspaceRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof PutWorkspaceResponseSchema>> {
    return this.putWorkspace.put(ctx.tenantId, request);
  }
}
