import { Injectable } from '@nestjs/common';
import type { PutAgentRequest } from '@engram/contracts';
import { ensureTenant, TenantTransactions } from '@engram/store';
import { profileToStore } from './agent-profile';
import { AgentProfileRepository, type StoredAgentProfile } from './agent-profile.repository';

/** mem.rpc.agents.put: an agent's whole profile, stored (inserted or replaced) in a tenant transaction, the tenant registered first. */
@Injectable()
export class PutAgentProfileUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly profiles: AgentProfileRepository,
  ) {}

  put(tenantId: string, request: PutAgentRequest): Promise<StoredAgentProfile> {
    return this.transactions.run(tenantId, async (manager) => {
      await ensureTenant(manager, tenantId);
      return this.profiles.put(manager, tenantId, profileToStore(request));
    });
  }
}
