import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '@engram/config';
import { migrateDatabase, setupDatabase } from '@engram/store';

/**
 * Every jest run has its own databases, named after the run (the jest parent's pid,
 * which its workers inherit): concurrent runs never drop each other's, and a run that
 * died is cleaned up by the next one.
 */
const RUN_ENV = 'ENGRAM_TEST_RUN';
const SCRATCH_PREFIX = 'engram_t_';

function runId(): string {
  const id = process.env[RUN_ENV];
  if (!id)
    throw new Error(
      `${RUN_ENV} is not set: scratch databases are made by jest's integration project (its global setup)`,
    );
  return id;
}

/** Migrated once per test run; every suite copies it (CREATE DATABASE … TEMPLATE takes a fraction of a second). */
export function templateDatabase(): string {
  return `${SCRATCH_PREFIX}${runId()}_template`;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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

/**
 * For this run: roles, extensions and a fresh template with every migration; and the
 * databases of earlier runs that are no longer running are dropped.
 */
export async function prepareTemplateDatabase(): Promise<void> {
  process.env[RUN_ENV] ??= String(process.pid);
  const config = urls();
  await admin(async (client) => {
    const all = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${SCRATCH_PREFIX}%`],
    );
    for (const { datname } of all.rows) {
      const owner = /^engram_t_(\d+)_/.exec(datname)?.[1];
      if (!owner || owner === runId() || !isRunning(Number(owner))) await dropDatabase(client, datname);
    }
  });
  await setupDatabase(
    {
      adminUrl: config.ENGRAM_PG_ADMIN_URL,
      ownerUrl: config.DATABASE_OWNER_URL,
      appUrl: config.DATABASE_URL,
    },
    templateDatabase(),
  );
  await migrateDatabase(onDatabase(config.DATABASE_OWNER_URL, templateDatabase()));
}

/** Drops this run's template (the suites drop their own databases). */
export async function dropTemplateDatabase(): Promise<void> {
  await admin((client) => dropDatabase(client, templateDatabase()));
}

export interface ScratchDatabaseOptions {
  /**
   * Migrate only up to and including this migration (its name, e.g. 'Outbox1760000000011'),
   * from nothing instead of from the run's template: a database as an older release left it,
   * for a spec of what a later migration does to its rows (`migrateDatabase(db.ownerUrl)`
   * applies the rest).
   */
  readonly through?: string;
}

/** A private, migrated database for one suite or benchmark. */
export async function createScratchDatabase(
  label: string,
  options: ScratchDatabaseOptions = {},
): Promise<ScratchDatabase> {
  const config = urls();
  const name = `${SCRATCH_PREFIX}${runId()}_${label
    .replace(/[^a-z0-9_]/gi, '_')
    .toLowerCase()
    .slice(0, 20)}_${randomBytes(3).toString('hex')}`;
  const owner = decodeURIComponent(new URL(config.DATABASE_OWNER_URL).username);
  if (options.through === undefined) {
    await admin((client) =>
      client.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDatabase()}" OWNER "${owner}"`),
    );
  } else {
    const through = options.through;
    await setupDatabase(
      {
        adminUrl: config.ENGRAM_PG_ADMIN_URL,
        ownerUrl: config.DATABASE_OWNER_URL,
        appUrl: config.DATABASE_URL,
      },
      name,
    );
    await migrateDatabase(onDatabase(config.DATABASE_OWNER_URL, name), { through }).catch(async (error) => {
      await admin((client) => dropDatabase(client, name)).catch(() => undefined);
      throw error;
    });
  }
  return {
    name,
    appUrl: onDatabase(config.DATABASE_URL, name),
    ownerUrl: onDatabase(config.DATABASE_OWNER_URL, name),
    adminUrl: onDatabase(config.ENGRAM_PG_ADMIN_URL, name),
    drop: () => admin((client) => dropDatabase(client, name)),
  };
}
