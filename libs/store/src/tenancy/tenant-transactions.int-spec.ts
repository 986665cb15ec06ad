import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createScratchDatabase, type ScratchDatabase } from '@engram/testing';
import { createDataSource } from '../data-source';
import { TenantTransactions } from './tenant-transactions';

/** Reads as a tenant in one round trip, as the app role under row-level security. */
describe('TenantTransactions.readAsTenant (real Postgres)', () => {
  let db: ScratchDatabase;
  let admin: Client;
  let dataSource: DataSource;
  let transactions: TenantTransactions;

  beforeAll(async () => {
    db = await createScratchDatabase('tenant-transactions');
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    await admin.query(
      `INSERT INTO conversations (tenant_id, session_key, agent, channel)
       VALUES ('acme', 'a-1', 'assistant', 'chat'), ('acme', 'a-2', 'assistant', 'mail'),
              ('globex', 'g-1', 'assistant', 'chat')`,
    );
    // One connection, so a setting left behind would show in the next read.
    dataSource = createDataSource(db.appUrl, { poolSize: 1, applicationName: 'tenant-transactions-spec' });
    await dataSource.initialize();
    transactions = new TenantTransactions(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await admin?.end();
    await db?.drop();
  });

  it("sees the tenant's rows only, with the values in place of the parameters", async () => {
    const sql = `SELECT session_key AS key FROM conversations WHERE channel = ANY($1::text[]) ORDER BY 1`;
    expect(await transactions.readAsTenant('acme', sql, [['chat', 'mail']])).toEqual([
      { key: 'a-1' },
      { key: 'a-2' },
    ]);
    expect(await transactions.readAsTenant('globex', sql, [['chat', 'mail']])).toEqual([{ key: 'g-1' }]);
    expect(await transactions.readAsTenant('initech', sql, [['chat']])).toEqual([]);
  });

  it('leaves no tenant behind on the pooled connection', async () => {
    await transactions.readAsTenant('acme', `SELECT 1`);
    const rows: Array<{ n: number }> = await dataSource.query(`SELECT count(*)::int AS n FROM conversations`);
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('reads values that quote, escape or look like SQL as plain values', async () => {
    const hostile = [`it's`, `back\\slash`, `"quoted", {braced}`, `'); DROP TABLE tenants; --`, 'NULL'];
    const rows = await transactions.readAsTenant<{ v: string[]; one: string; n: number }>(
      'acme',
      `SELECT $1::text[] AS v, $2::text AS one, $3::int AS n`,
      [hostile, hostile[3], 7],
    );
    expect(rows).toEqual([{ v: hostile, one: hostile[3], n: 7 }]);
    expect((await admin.query(`SELECT count(*)::int AS n FROM tenants`)).rows).toEqual([{ n: 2 }]);
  });

  it("fails with Postgres' own error, and the connection serves the next read", async () => {
    await expect(transactions.readAsTenant('acme', `SELECT 1 / $1::int`, [0])).rejects.toMatchObject({
      code: '22012',
    });
    expect(await transactions.readAsTenant('acme', `SELECT count(*)::int AS n FROM conversations`)).toEqual([
      { n: 2 },
    ]);
  });
});
