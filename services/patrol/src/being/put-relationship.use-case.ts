import { Injectable } from '@nestjs/common';
import type { PutRelationshipRequest } from '@engram/contracts';
import { ensureBeing, TenantTransactions } from '@engram/store';
import { BeingProfileRepository, type Relationship } from './being-profile.repository';

/** mem.rpc.being.relationships.put: who a person is to the being, by person, stored in a tenant transaction that first makes the agent a being; answers it as stored. */
@Injectable()
export class PutRelationshipUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly profile: BeingProfileRepository,
  ) {}

  put(tenantId: string, request: PutRelationshipRequest): Promise<Relationship> {
    return this.transactions.run(tenantId, async (m) => {
      await ensureBeing(m, tenantId, request.agent);
      return this.profile.putRelationship(m, tenantId, request.agent, {
        person: request.person,
        relation: request.relation,
        notes: request.notes,
      });
    });
  }
}
