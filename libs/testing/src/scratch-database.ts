import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '@engram/config';
import { migrateDatabase, setupDatabase } from '@engram/store';

/** Migrated once per test run; every suite copies it (CREATE DATABASE … TEMPLATE takes a fraction of a second). */
export const TEMPLATE_DATABASE = 'engram_test_template';
const SCRATCH_PREFIX = 'engram_t_';

export interface ScratchDatabase {
  readonly name: string;
  /** As the services connect: the app role, under row-level security. */
  readonly appUrl: string;
  readonly ownerUrl: string;
  /** A superuser on this database, for assertions that must see every tenant. */
  readonly adminUrl: string;
  drop(): Promise<void>;
}

function urls() {
  return loadConfig(['ENGRAM_PG_ADMIN_URL', 'DATABASE_OWNER_URL', 'DATABASE_URL']);
}

function onDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: urls().ENGRAM_PG_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function dropDatabase(client: Client, name: string): Promise<void> {
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/** Roles, extensions, a fresh template with every migration, and no scratch databases left from earlier runs. */
export async function prepareTemplateDatabase(): Promise<void> {
  const config = urls();
  await admin(async (client) => {
    const stale = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
      `${SCRATCH_PREFIX}%`,
    ]);
    for (const { datname } of stale.rows) await dropDatabase(client, datname);
    await dropDatabase(client, TEMPLATE_DATABASE);
  });
  await setupDatabase(
    { adminUrl: config.ENGRAM_PG_ADMIN_URL, ownerUrl: config.DATABASE_OWNER_URL, appUrl: config.DATABASE_URL },
    TEMPLATE_DATABASE,
  );
  await migrateDatabase(onDatabase(config.DATABASE_OWNER_URL, TEMPLATE_DATABASE));
}

/** A private, migrated database for one suite or benchmark. */
export async function createScratchDatabase(label: string): Promise<ScratchDatabase> {
  const config = urls();
  const name = `${SCRATCH_PREFIX}${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(3).toString('hex')}`;
  const owner = decodeURIComponent(new URL(config.DATABASE_OWNER_URL).username);
  await admin((client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DATABASE}" OWNER "${owner}"`));
  return {
    name,
    appUrl: onDatabase(config.DATABASE_URL, name),
    ownerUrl: onDatabase(config.DATABASE_OWNER_URL, name),
    adminUrl: onDatabase(config.ENGRAM_PG_ADMIN_URL, name),
    drop: () => admin((client) => dropDatabase(client, name)),
  };
}
