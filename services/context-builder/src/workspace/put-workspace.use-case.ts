import { Injectable } from '@nestjs/common';
import type { MessageInitShape, PutWorkspaceRequest, PutWorkspaceResponseSchema } from '@engram/contracts';
import { ensureTenant, TenantTransactions } from '@engram/store';
import { workspaceWrite } from './workspace-documents';
import { WorkspaceRepository } from './workspace.repository';

/**
 * mem.rpc.workspace.put: an agent's workspace documents (SOUL.md … and daily notes), stored in one
 * tenant transaction (the tenant registered first); documents that are not kept are answered as
 * skipped, with why, and nothing is written when none is kept.
 */
@Injectable()
export class PutWorkspaceUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly workspace: WorkspaceRepository,
  ) {}

  async put(
    tenantId: string,
    request: PutWorkspaceRequest,
  ): Promise<MessageInitShape<typeof PutWorkspaceResponseSchema>> {
    const write = workspaceWrite(request);
    if (write.documents.length > 0)
      await this.transactions.run(tenantId, async (manager) => {
        await ensureTenant(manager, tenantId);
        await this.workspace.put(manager, tenantId, write.agent, write.documents);
      });
    return { stored: write.documents.map((d) => d.name), skipped: write.skipped };
  }
}
