import { Injectable } from '@nestjs/common';
import type { PutPreferenceRequest } from '@engram/contracts';
import { ensureBeing, TenantTransactions } from '@engram/store';
import { BeingProfileRepository, type UserPreference } from './being-profile.repository';

/** mem.rpc.being.preferences.put: a preference of the being's partner, by key, stored in a tenant transaction that first makes the agent a being; answers it as stored. */
@Injectable()
export class PutPreferenceUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly profile: BeingProfileRepository,
  ) {}

  put(tenantId: string, request: PutPreferenceRequest): Promise<UserPreference> {
    return this.transactions.run(tenantId, async (m) => {
      await ensureBeing(m, tenantId, request.agent);
      return this.profile.putPreference(m, tenantId, request.agent, {
        key: request.key,
        value: request.value,
      });
    });
  }
}
