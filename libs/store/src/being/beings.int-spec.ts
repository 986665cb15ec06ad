import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createScratchDatabase, waitFor, type ScratchDatabase } from '@engram/testing';
import { createDataSource } from '../data-source';
import { actAsTenant } from '../tenancy/tenant-transactions';
import { ensureBeing, type BeingRoots } from './beings';

/** ensureBeing against real Postgres, as the app role under row-level security. */
describe('ensureBeing (real Postgres)', () => {
  let db: ScratchDatabase;
  let admin: Client;
  let dataSource: DataSource;

  const ensure = (tenant: string, agent: string) =>
    dataSource.transaction(async (manager) => {
      await actAsTenant(manager, tenant);
      return ensureBeing(manager, tenant, agent);
    });

  const clustersOf = async (tenant: string, agent: string) =>
    (
      await admin.query(
        `SELECT id::text, name, root, parent_id::text FROM clusters WHERE tenant_id = $1 AND agent = $2 ORDER BY root`,
        [tenant, agent],
      )
    ).rows;

  /** Two transactions for one being: the second starts while the first holds its uncommitted rows. */
  async function race(tenant: string, agent: string): Promise<[BeingRoots, BeingRoots]> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const firstWrote = new Promise<void>((resolve) => (written = resolve));
    const first = dataSource.transaction(async (manager) => {
      await actAsTenant(manager, tenant);
      const roots = await ensureBeing(manager, tenant, agent);
      written();
      await held;
      return roots;
    });
    await firstWrote;
    const second = ensure(tenant, agent);
    await waitFor(
      'the second transaction to wait for the first',
      async () =>
        (
          await admin.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).rowCount === 1,
      10_000,
      20,
    );
    release();
    return Promise.all([first, second]);
  }

  beforeAll(async () => {
    db = await createScratchDatabase('beings');
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    dataSource = createDataSource(db.appUrl, { poolSize: 4, applicationName: 'beings-spec' });
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await admin?.end();
    await db?.drop();
  });

  it('registers the being and its two self-parented roots, Business and Private, once', async () => {
    const roots = await ensure('acme', 'ada');
    expect(await clustersOf('acme', 'ada')).toEqual([
      { id: roots.business, name: 'Business', root: 'business', parent_id: roots.business },
      { id: roots.private, name: 'Private', root: 'private', parent_id: roots.private },
    ]);
    expect(roots.business).not.toBe(roots.private);
    expect((await admin.query(`SELECT tenant_id, agent FROM beings`)).rows).toEqual([
      { tenant_id: 'acme', agent: 'ada' },
    ]);
    expect((await admin.query(`SELECT 1 FROM tenants WHERE tenant_id = 'acme'`)).rowCount).toBe(1);

    expect(await ensure('acme', 'ada')).toEqual(roots);
    expect(await clustersOf('acme', 'ada')).toHaveLength(2);
  });

  it('gives the same agent name in another tenant roots of its own', async () => {
    const acme = await ensure('acme', 'ada');
    const globex = await ensure('globex', 'ada');
    expect([globex.business, globex.private]).not.toContain(acme.business);
    expect([globex.business, globex.private]).not.toContain(acme.private);
    expect(await clustersOf('globex', 'ada')).toHaveLength(2);
    expect(await clustersOf('acme', 'ada')).toHaveLength(2);
  });

  it('makes one pair when two transactions register a new being at once', async () => {
    await ensure('acme', 'warmup'); // the tenant exists: the race is on the being itself
    const [a, b] = await race('acme', 'bea');
    expect(b).toEqual(a);
    expect(await clustersOf('acme', 'bea')).toHaveLength(2);
    expect(
      (await admin.query(`SELECT 1 FROM beings WHERE tenant_id = 'acme' AND agent = 'bea'`)).rowCount,
    ).toBe(1);
  });

  it('makes one pair when two transactions give roots to a being registered without them', async () => {
    await admin.query(`INSERT INTO beings (tenant_id, agent) VALUES ('acme', 'cal')`);
    const [a, b] = await race('acme', 'cal');
    expect(b).toEqual(a);
    expect(await clustersOf('acme', 'cal')).toEqual([
      { id: a.business, name: 'Business', root: 'business', parent_id: a.business },
      { id: a.private, name: 'Private', root: 'private', parent_id: a.private },
    ]);
  });
});
