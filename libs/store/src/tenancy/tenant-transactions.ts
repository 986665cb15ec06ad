import { Injectable } from '@nestjs/common';
import { escapeLiteral, type Pool, type QueryResult } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { collectOutboxRows } from '../outbox/outbox.store';
import type { OutboxRow } from '../rows/outbox.row';

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

  /**
   * One read as the tenant in one round trip, for hot paths whose statements each stand alone:
   * the tenant setting and the statement travel in one simple-protocol message, which Postgres
   * runs as one implicit transaction, so row-level security holds and the setting ends with it
   * (as in run). Four round trips become one. Values go inline as quoted literals, which
   * Postgres types from their context just as it types the untyped parameters pg sends.
   */
  async readAsTenant<T>(tenantId: string, text: string, values: readonly unknown[] = []): Promise<T[]> {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    const results = (await pool.query(
      `SELECT set_config('engram.tenant_id', ${escapeLiteral(tenantId)}, true); ${inlineValues(text, values)}`,
    )) as unknown as QueryResult[];
    return results[1]!.rows as T[];
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

/** `text` with each $n replaced by values[n - 1] as a literal (SQL that holds no "$n" of its own). */
export function inlineValues(text: string, values: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i >= values.length) throw new Error(`the statement uses $${n} but has ${values.length} values`);
    return literalOf(values[i]);
  });
}

/** A value as pg would send it as a parameter (text, untyped), quoted; arrays as array literals. */
function literalOf(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  return escapeLiteral(textOf(value));
}

function textOf(value: unknown): string {
  if (value instanceof Uint8Array) throw new Error('readAsTenant inlines no binary values: use run()');
  if (Array.isArray(value)) return `{${value.map(elementOf).join(',')}}`;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function elementOf(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) return textOf(value);
  return `"${textOf(value).replace(/["\\]/g, '\\$&')}"`;
}
