import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** The tenant a statement acts for; row-level security shows and accepts only its rows. */
export async function actAsTenant(manager: EntityManager, tenantId: string): Promise<void> {
  await manager.query(`SELECT set_config('engram.tenant_id', $1, true)`, [tenantId]);
}

/**
 * Every read and write of tenant data runs in a transaction that names its tenant
 * (a transaction-local setting, so pooled connections never leak it). Outside such
 * a transaction no tenant row is visible at all.
 */
@Injectable()
export class TenantTransactions {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(tenantId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await actAsTenant(manager, tenantId);
      return work(manager);
    });
  }

  /** One transaction across several tenants: call actAsTenant before each tenant's statements. */
  runAcrossTenants<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
