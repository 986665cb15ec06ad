import { Client } from 'pg';
import { createMigratedDatabase, type ScratchDatabase } from '@engram/testing';

/** The schema as migrated: every table (vector partitions included) is confined to the transaction's tenant. */
describe('tenant isolation in the migrated schema (real Postgres)', () => {
  let db: ScratchDatabase;
  let admin: Client;
  let app: Client;

  beforeAll(async () => {
    db = await createMigratedDatabase('isolation');
    admin = new Client({ connectionString: db.adminUrl });
    app = new Client({ connectionString: db.appUrl });
    await Promise.all([admin.connect(), app.connect()]);
  });

  afterAll(async () => {
    await Promise.all([admin?.end(), app?.end()]);
    await db?.drop();
  });

  it('forces row-level security with a tenant policy on every table and partition', async () => {
    // (tenants, outbox, beings and api_keys alone do not force their owner through the policy:
    // SECURITY DEFINER functions of the owner list tenant ids for background sweeps
    // (engram_tenant_ids()), hand the outbox relay rows to publish (engram_outbox_claim() …), list
    // the beings whose patrol is due (engram_beings_due()) and find a key's tenant
    // (engram_api_key_verify()); the app role is confined.)
    const { rows } = await admin.query<{
      table: string;
      enabled: boolean;
      forced: boolean;
      policies: number;
    }>(
      `SELECT c.relname AS table, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
              (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid)::int AS policies
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> 'engram_migrations'`,
    );
    expect(rows.map((r) => r.table)).toEqual(
      expect.arrayContaining(['messages', 'embeddings', 'embeddings_p00', 'embeddings_p31']),
    );
    expect(rows.filter((r) => !r.enabled || r.policies === 0).map((r) => r.table)).toEqual([]);
    expect(
      rows
        .filter((r) => !r.forced)
        .map((r) => r.table)
        .sort(),
    ).toEqual(['api_keys', 'beings', 'outbox', 'tenants']);
  });

  it('keeps a vector of one tenant from another, through the table and through its partition', async () => {
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    const dims = (
      await admin.query<{ dims: number }>(
        `SELECT atttypmod AS dims FROM pg_attribute WHERE attrelid = 'embeddings'::regclass AND attname = 'embedding'`,
      )
    ).rows[0]!.dims;
    const vector = `[${Array.from({ length: dims }, () => 0.1).join(',')}]`;
    await admin.query(
      `INSERT INTO embeddings (item_kind, item_id, tenant_id, model, embedding) VALUES ('message', 1, 'acme', 'm', $1)`,
      [vector],
    );
    const partition = (
      await admin.query<{ name: string }>(
        `SELECT tableoid::regclass::text AS name FROM embeddings WHERE tenant_id = 'acme'`,
      )
    ).rows[0]!.name;
    expect(partition).toMatch(/^embeddings_p\d\d$/);

    const seen = async (tenant: string, sql: string) => {
      await app.query('BEGIN');
      try {
        await app.query(`SELECT set_config('engram.tenant_id', $1, true)`, [tenant]);
        return (await app.query(sql)).rowCount;
      } finally {
        await app.query('ROLLBACK');
      }
    };
    expect(await seen('acme', `SELECT 1 FROM embeddings`)).toBe(1);
    expect(await seen('globex', `SELECT 1 FROM embeddings`)).toBe(0);
    expect(await seen('globex', `SELECT 1 FROM ${partition}`)).toBe(0);
    expect(await seen('acme', `SELECT 1 FROM ${partition}`)).toBe(1);
  });
});
