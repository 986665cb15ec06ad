import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createScratchDatabase, type ScratchDatabase } from '@engram/testing';
import { createDataSource } from '../data-source';
import { actAsTenant } from '../tenancy/tenant-transactions';
import { ApiKeyStore } from './api-keys';

/** API keys against real Postgres, as the app role under row-level security. */
describe('ApiKeyStore (real Postgres)', () => {
  let db: ScratchDatabase;
  let admin: Client;
  let dataSource: DataSource;
  let keys: ApiKeyStore;

  beforeAll(async () => {
    db = await createScratchDatabase('api-keys');
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    dataSource = createDataSource(db.appUrl, { poolSize: 2, applicationName: 'api-keys-spec' });
    await dataSource.initialize();
    keys = new ApiKeyStore(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await admin?.end();
    await db?.drop();
  });

  it('makes a key that verifies as its tenant, storing only its hash', async () => {
    const made = await keys.create('acme', 'ci');
    expect(made).toMatchObject({
      tenantId: 'acme',
      name: 'ci',
      prefix: made.key.slice(0, 12),
      revokedAt: null,
    });
    expect(await keys.verify(made.key)).toEqual({ keyId: made.id, tenantId: 'acme' });

    const stored = await admin.query(`SELECT * FROM api_keys WHERE id = $1`, [made.id]);
    expect(JSON.stringify(stored.rows)).not.toContain(made.key.slice(12));
    expect((await admin.query(`SELECT 1 FROM tenants WHERE tenant_id = 'acme'`)).rowCount).toBe(1);
  });

  it('verifies nothing for an unknown, malformed or revoked key', async () => {
    const made = await keys.create('acme');
    expect(await keys.verify(`egm_${'x'.repeat(43)}`)).toBeUndefined();
    expect(await keys.verify('Bearer nonsense')).toBeUndefined();
    expect(await keys.verify(made.key.slice(0, -1))).toBeUndefined();

    const revoked = await keys.revoke(made.id);
    expect(revoked?.tenantId).toBe('acme');
    expect(await keys.verify(made.key)).toBeUndefined();
    // Revoking again keeps the first time; an unknown id revokes nothing.
    expect((await keys.revoke(made.id))?.revokedAt).toEqual(revoked?.revokedAt);
    expect(await keys.revoke('key_unknownunkn')).toBeUndefined();
  });

  it("lists a tenant's keys, never another tenant's, and notes when a key was last used", async () => {
    const mine = await keys.create('lists-a', 'first');
    await keys.create('lists-b', 'other');
    expect((await keys.list('lists-a')).map((k) => k.id)).toEqual([mine.id]);
    expect((await keys.list('lists-a'))[0]?.lastUsedAt).toBeNull();
    await keys.verify(mine.key);
    expect((await keys.list('lists-a'))[0]?.lastUsedAt).toBeInstanceOf(Date);
  });

  it('confines the app role to its tenant: another tenant may not read or add keys', async () => {
    await keys.create('confined');
    const seen = await dataSource.transaction(async (manager) => {
      await actAsTenant(manager, 'intruder');
      return manager.query(`SELECT id FROM api_keys WHERE tenant_id = 'confined'`);
    });
    expect(seen).toEqual([]);
    await expect(
      dataSource.transaction(async (manager) => {
        await actAsTenant(manager, 'intruder');
        await manager.query(
          `INSERT INTO api_keys (id, tenant_id, prefix, sha256) VALUES ('key_AAAAAAAAAAAA', 'confined', 'x', decode(repeat('00', 32), 'hex'))`,
        );
      }),
    ).rejects.toThrow(/row-level security/);
  });
});
