import { Injectable } from '@nestjs/common';
import type { PutPartnerRuleRequest } from '@engram/contracts';
import { ensureBeing, TenantTransactions } from '@engram/store';
import { BeingProfileRepository, type PartnerRule } from './being-profile.repository';

/** mem.rpc.being.rules.put: a partner rule of the being, by its text (enabled or not), stored in a tenant transaction that first makes the agent a being; answers it as stored. */
@Injectable()
export class PutPartnerRuleUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly profile: BeingProfileRepository,
  ) {}

  put(tenantId: string, request: PutPartnerRuleRequest): Promise<PartnerRule> {
    return this.transactions.run(tenantId, async (m) => {
      await ensureBeing(m, tenantId, request.agent);
      return this.profile.putRule(m, tenantId, request.agent, request.rule, request.enabled);
    });
  }
}
