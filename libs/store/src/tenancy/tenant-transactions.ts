import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { collectOutboxRows, type OutboxRow } from '../outbox/outbox.store';

/** The tenant a statement acts for; row-level security shows and accepts only its rows. */
export async function actAsTenant(manager: EntityManager, tenantId: string): Promise<void> {
  await manager.query(`SELECT set_config('engram.tenant_id', $1, true)`, [tenantId]);
}

/** Told what a transaction put in the outbox, once it committed (never throws). */
export type OutboxCommitted = (rows: readonly OutboxRow[]) => Promise<void>;

/**
 * Every read and write of tenant data runs in a transaction that names its tenant
 * (a transaction-local setting, so pooled connections never leak it). Outside such
 * a transaction no tenant row is visible at all. Events a transaction put in the
 * outbox are handed to the publisher after it committed, before `run` returns.
 */
@Injectable()
export class TenantTransactions {
  private readonly committed: OutboxCommitted[] = [];

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Told of the rows each transaction put in the outbox, once it committed: the outbox relay
   * (without it, committed rows wait for a relay's sweep) and whoever keeps state of its own
   * current from them (retrieval's search index: a write is seen by the next search).
   */
  onOutboxCommitted(listener: OutboxCommitted): void {
    this.committed.push(listener);
  }

  run<T>(tenantId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.transaction(async (manager) => {
      await actAsTenant(manager, tenantId);
      return work(manager);
    });
  }

  /** One transaction across several tenants: call actAsTenant before each tenant's statements. */
  runAcrossTenants<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  private async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const appended: OutboxRow[] = [];
    const result = await this.dataSource.transaction((manager) => {
      collectOutboxRows(manager, appended);
      return work(manager);
    });
    if (appended.length > 0) await Promise.all(this.committed.map((listener) => listener(appended)));
    return result;
  }
}
