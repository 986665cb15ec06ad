import { Controller } from '@nestjs/common';
import {
  Rpcs,
  type MessageInitShape,
  type PutWorkspaceRequest,
  type PutWorkspaceResponseSchema,
} from '@engram/contracts';
import { HandleRpc, type RpcCallContext } from '@engram/messaging';
import { workspaceWrite } from './workspace-documents';
import { WorkspaceRepository } from './workspace.repository';

/** mem.rpc.workspace.put.{tenant}: an agent's workspace documents (SOUL.md … and daily notes). */
@Controller()
export class WorkspaceHandler {
  constructor(private readonly workspace: WorkspaceRepository) {}

  @HandleRpc(Rpcs.workspacePut)
  async put(
    request: PutWorkspaceRequest,
    ctx: RpcCallContext,
  ): Promise<MessageInitShape<typeof PutWorkspaceResponseSchema>> {
    const write = workspaceWrite(request);
    await this.workspace.put(ctx.tenantId, write.agent, write.documents);
    return { stored: write.documents.map((d) => d.name), skipped: write.skipped };
  }
}
