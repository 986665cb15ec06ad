import { Client } from 'pg';
import { createDataSource, MIGRATIONS_TABLE, type Migration } from '../data-source';
import { MIGRATIONS } from '../migrations';

export interface DatabaseUrls {
  /** A superuser: creates roles, the database and extensions. */
  readonly adminUrl: string;
  /** The schema owner: runs migrations. */
  readonly ownerUrl: string;
  /** What the services connect as: no superuser, no BYPASSRLS. */
  readonly appUrl: string;
}

interface RoleSpec {
  readonly user: string;
  readonly password: string | null;
  readonly database: string;
}

function roleOf(url: string): RoleSpec {
  const parsed = new URL(url);
  return {
    user: decodeURIComponent(parsed.username),
    password: parsed.password ? decodeURIComponent(parsed.password) : null,
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')),
  };
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates what the migrations cannot create as the schema owner: the owner and
 * app roles, the database, the extensions, and the app role's default privileges
 * (read and write, never delete: the transcript is never deleted by the system).
 * Idempotent.
 */
export async function setupDatabase(urls: DatabaseUrls, database?: string): Promise<void> {
  const owner = roleOf(urls.ownerUrl);
  const app = roleOf(urls.appUrl);
  const dbName = database ?? owner.database;
  await withClient(urls.adminUrl, async (admin) => {
    // Roles are the cluster's: two setups at once (parallel test workers) would otherwise both
    // alter a role ("tuple concurrently updated") or both create a database. Released with the session.
    await admin.query(`SELECT pg_advisory_lock(hashtext('engram-setup'))`);
    for (const [role, extra] of [
      [owner, 'NOSUPERUSER NOBYPASSRLS'],
      [app, 'NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE'],
    ] as const) {
      const exists = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role.user]);
      const password = role.password ? ` PASSWORD ${literal(role.password)}` : '';
      await admin.query(
        `${exists.rowCount ? 'ALTER' : 'CREATE'} ROLE ${ident(role.user)} LOGIN ${extra}${password}`,
      );
    }
    const db = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
    if (!db.rowCount) await admin.query(`CREATE DATABASE ${ident(dbName)} OWNER ${ident(owner.user)}`);
  });
  const adminOnDb = new URL(urls.adminUrl);
  adminOnDb.pathname = `/${encodeURIComponent(dbName)}`;
  await withClient(adminOnDb.toString(), async (admin) => {
    await admin.query(`SELECT pg_advisory_lock(hashtext('engram-setup'))`);
    await admin.query(`
      CREATE EXTENSION IF NOT EXISTS vector;
      CREATE EXTENSION IF NOT EXISTS btree_gin;
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
      -- Under row-level security Postgres only lets a leakproof condition into an index scan
      -- (it may otherwise run on another tenant's rows first). tsvector @@ tsquery is not
      -- marked so, only because nobody audited it: it raises no error and has no side effect
      -- that depends on the row. Without the mark every full-text search rechecks all the
      -- tenant's rows (26 ms against 0.7 ms at 1 M messages); with it, the (tenant_id, tsv)
      -- GIN index answers. Only this database's catalog changes. A managed Postgres whose admin
      -- may not alter catalog functions gets the slower searches and a warning, not a failure.
      DO $$ BEGIN
        ALTER FUNCTION pg_catalog.ts_match_vq(tsvector, tsquery) LEAKPROOF;
      EXCEPTION WHEN insufficient_privilege THEN
        RAISE WARNING 'ts_match_vq could not be marked LEAKPROOF: full-text search under row-level security will recheck each tenant''s rows';
      END $$;
      GRANT USAGE ON SCHEMA public TO ${ident(app.user)};
      ALTER DEFAULT PRIVILEGES FOR ROLE ${ident(owner.user)} IN SCHEMA public
        GRANT SELECT, INSERT, UPDATE ON TABLES TO ${ident(app.user)};
      ALTER DEFAULT PRIVILEGES FOR ROLE ${ident(owner.user)} IN SCHEMA public
        GRANT USAGE, SELECT ON SEQUENCES TO ${ident(app.user)};
    `);
  });
}

/**
 * Applies pending migrations as the schema owner; concurrent runs wait for each other.
 * `through` (a migration's name) stops after that migration: a database as an older release
 * left it, for a spec of what the next migration does to its rows.
 */
export async function migrateDatabase(
  ownerUrl: string,
  options: { through?: string } = {},
): Promise<string[]> {
  const dataSource = createDataSource(ownerUrl, {
    poolSize: 2,
    applicationName: 'engram-migrate',
    migrations: migrationsThrough(options.through),
  });
  await dataSource.initialize();
  const lock = dataSource.createQueryRunner();
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtext('engram-migrations'))`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(hashtext('engram-migrations'))`).catch(() => undefined);
    await lock.release();
    await dataSource.destroy();
  }
}

/** MIGRATIONS up to and including the one named (all of them when none is). */
export function migrationsThrough(name: string | undefined): Migration[] {
  if (name === undefined) return [...MIGRATIONS];
  const last = MIGRATIONS.findIndex((m) => m.name === name);
  if (last < 0) throw new Error(`no migration is named ${name}`);
  return MIGRATIONS.slice(0, last + 1);
}

/** Names of migrations the code knows but the database has not applied. */
export async function pendingMigrations(
  query: (sql: string) => Promise<Array<{ name: string }>>,
  known: string[],
): Promise<string[]> {
  const rows = await query(`SELECT name FROM ${MIGRATIONS_TABLE}`).catch(() => []);
  const applied = new Set(rows.map((r) => r.name));
  return known.filter((name) => !applied.has(name));
}
