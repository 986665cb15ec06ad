import { Injectable } from '@nestjs/common';
import type { MessageInitShape, TenantSettingsSchema } from '@engram/contracts';
import { TenantEntity, TenantTransactions } from '@engram/store';

/** The settings as mem.rpc.tenant.settings answers them. */
type TenantSettingsInit = MessageInitShape<typeof TenantSettingsSchema>;

@Injectable()
export class TenantSettingsRepository {
  constructor(private readonly transactions: TenantTransactions) {}

  /** A tenant that never published has the defaults. */
  get(tenantId: string): Promise<TenantSettingsInit> {
    return this.transactions.run(tenantId, async (manager) => {
      const tenant = await manager.findOneBy(TenantEntity, { tenantId });
      return { tenantId, memoryEnabled: tenant?.memoryEnabled ?? true };
    });
  }

  update(tenantId: string, changes: { memoryEnabled?: boolean }): Promise<TenantSettingsInit> {
    return this.transactions.run(tenantId, async (manager) => {
      const rows: Array<{ memory_enabled: boolean }> = await manager.query(
        `INSERT INTO tenants AS t (tenant_id, memory_enabled) VALUES ($1, coalesce($2, true))
         ON CONFLICT (tenant_id) DO UPDATE SET memory_enabled = coalesce($2, t.memory_enabled), updated_at = now()
         RETURNING memory_enabled`,
        [tenantId, changes.memoryEnabled ?? null],
      );
      return { tenantId, memoryEnabled: rows[0]!.memory_enabled };
    });
  }
}
