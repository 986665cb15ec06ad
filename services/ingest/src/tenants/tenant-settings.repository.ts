import { Injectable } from '@nestjs/common';
import type { MessageInitShape, TenantSettingsSchema } from '@engram/contracts';
import { TenantTransactions, type EntityManager, type TenantRow } from '@engram/store';

/** The settings as mem.rpc.tenant.settings answers them. */
type TenantSettingsInit = MessageInitShape<typeof TenantSettingsSchema>;

/**
 * A tenant's settings (table tenants). `get` is a plain read with its own tenant transaction (the
 * handler's read-only shortcut); `update` runs in the caller's (UpdateTenantSettingsUseCase).
 */
@Injectable()
export class TenantSettingsRepository {
  constructor(private readonly transactions: TenantTransactions) {}

  /** A tenant that never published has the defaults. */
  get(tenantId: string): Promise<TenantSettingsInit> {
    return this.transactions.run(tenantId, async (manager) => {
      const rows: Array<Pick<TenantRow, 'memoryEnabled'>> = await manager.query(
        `SELECT memory_enabled AS "memoryEnabled" FROM tenants WHERE tenant_id = $1`,
        [tenantId],
      );
      return { tenantId, memoryEnabled: rows[0]?.memoryEnabled ?? true };
    });
  }

  /** Sets what `changes` names (a tenant that never published is registered); the settings after. */
  async update(
    manager: EntityManager,
    tenantId: string,
    changes: { memoryEnabled?: boolean },
  ): Promise<TenantSettingsInit> {
    const rows: Array<Pick<TenantRow, 'memoryEnabled'>> = await manager.query(
      `INSERT INTO tenants AS t (tenant_id, memory_enabled) VALUES ($1, coalesce($2, true))
       ON CONFLICT (tenant_id) DO UPDATE SET memory_enabled = coalesce($2, t.memory_enabled), updated_at = now()
       RETURNING memory_enabled AS "memoryEnabled"`,
      [tenantId, changes.memoryEnabled ?? null],
    );
    return { tenantId, memoryEnabled: rows[0]!.memoryEnabled };
  }
}
