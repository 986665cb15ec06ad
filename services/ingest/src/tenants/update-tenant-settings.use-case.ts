import { Injectable } from '@nestjs/common';
import type { MessageInitShape, SetTenantSettingsRequest, TenantSettingsSchema } from '@engram/contracts';
import { TenantTransactions } from '@engram/store';
import { TenantSettingsRepository } from './tenant-settings.repository';

/**
 * mem.rpc.tenant.settings.update: switches derived memory on or off for the tenant (registering
 * it if it never published); a request that names no setting changes nothing and answers them.
 */
@Injectable()
export class UpdateTenantSettingsUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly settings: TenantSettingsRepository,
  ) {}

  update(
    tenantId: string,
    request: SetTenantSettingsRequest,
  ): Promise<MessageInitShape<typeof TenantSettingsSchema>> {
    const changes = request.memoryEnabled === undefined ? {} : { memoryEnabled: request.memoryEnabled };
    return this.transactions.run(tenantId, (manager) => this.settings.update(manager, tenantId, changes));
  }
}
