import { Injectable } from '@nestjs/common';
import type { PutSoulRequest } from '@engram/contracts';
import { ensureBeing, TenantTransactions } from '@engram/store';
import { BeingProfileRepository, type Soul } from './being-profile.repository';

/** mem.rpc.being.soul.put: the being's soul, replaced whole, in a tenant transaction that first makes the agent a being; answers it as stored. */
@Injectable()
export class PutSoulUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly profile: BeingProfileRepository,
  ) {}

  put(tenantId: string, request: PutSoulRequest): Promise<Soul> {
    return this.transactions.run(tenantId, async (m) => {
      await ensureBeing(m, tenantId, request.agent);
      return this.profile.putSoul(m, tenantId, request.agent, {
        personality: request.personality,
        voice: request.voice,
        values: request.values,
        backstory: request.backstory,
        inner_world: request.innerWorld,
        examples: request.examples,
      });
    });
  }
}
