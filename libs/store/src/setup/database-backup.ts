import { spawn } from 'node:child_process';
import { Client } from 'pg';
import { MIGRATIONS_TABLE } from '../data-source';
import { migrateDatabase, setupDatabase, type DatabaseUrls } from './database-setup';

/**
 * How pg_dump and pg_restore reach a database: a connection URI without the password (the
 * command line is visible to every user of the host) and the password in PGPASSWORD.
 */
export interface LibpqTarget {
  readonly uri: string;
  readonly env: Readonly<Record<string, string>>;
}

/** `url` pointed at `database`, its password moved out of the URI into PGPASSWORD. */
export function libpqTarget(url: string, database: string): LibpqTarget {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  const password = parsed.password ? decodeURIComponent(parsed.password) : null;
  parsed.password = '';
  return { uri: parsed.toString(), env: password === null ? {} : { PGPASSWORD: password } };
}

/** The database a URL names. */
export function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

/** Runs a Postgres client program; rejects with its exit code and the end of what it printed on stderr. */
function run(program: string, args: readonly string[], env: Readonly<Record<string, string>>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${program} is not installed (it comes with the PostgreSQL client, same major version as the server or newer)`,
            )
          : error,
      ),
    );
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${program} exited ${signal ?? code}: ${stderr.trim()}`)),
    );
  });
}

/**
 * Dumps the database with pg_dump's custom format (schema, data, grants, default privileges;
 * roles are the cluster's and not in it) as `adminUrl`'s role, which must see every tenant's rows:
 * a superuser or a role with BYPASSRLS (every table's row-level security is forced, the owner's too,
 * and pg_dump refuses to dump a table whose rows it would see only in part).
 */
export async function dumpDatabase(adminUrl: string, database: string, file: string): Promise<void> {
  const target = libpqTarget(adminUrl, database);
  await run('pg_dump', ['--format=custom', `--file=${file}`, `--dbname=${target.uri}`], target.env);
}

/** The last migration applied to a database, or null when it holds no Engram schema. */
export async function lastMigration(adminUrl: string, database: string): Promise<string | null> {
  const client = new Client({ connectionString: onDatabase(adminUrl, database) });
  await client.connect();
  try {
    const table = await client.query<{ t: string | null }>(`SELECT to_regclass($1) AS t`, [
      `public.${MIGRATIONS_TABLE}`,
    ]);
    if (!table.rows[0]?.t) return null;
    const last = await client.query<{ name: string }>(
      `SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY timestamp DESC LIMIT 1`,
    );
    return last.rows[0]?.name ?? null;
  } finally {
    await client.end();
  }
}

async function databaseExists(adminUrl: string, database: string): Promise<boolean> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (
      ((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])).rowCount ?? 0) > 0
    );
  } finally {
    await client.end();
  }
}

/** A database that already holds an Engram schema: a restore does not write over it. */
export class DatabaseNotEmptyError extends Error {}

/**
 * Restores a dump into the database `urls.ownerUrl` names, which must not hold an Engram schema
 * yet: first `setupDatabase` (the roles, which a dump does not carry, the database, the extensions,
 * and ts_match_vq marked LEAKPROOF, a change to this database's pg_catalog that pg_dump does not
 * dump), then pg_restore in one transaction as the superuser (row-level security is forced on the
 * tables, so only a role that bypasses it can load every tenant's rows; triggers and foreign keys
 * come after the data, so loading fires none), then the migrations this build has beyond the
 * dump's. Returns those migrations.
 */
export async function restoreDatabase(urls: DatabaseUrls, file: string): Promise<string[]> {
  const database = databaseOf(urls.ownerUrl);
  if (
    (await databaseExists(urls.adminUrl, database)) &&
    (await lastMigration(urls.adminUrl, database)) !== null
  )
    throw new DatabaseNotEmptyError(
      `database ${database} already holds an Engram schema: restore into a new database, or drop this one first`,
    );
  await setupDatabase(urls, database);
  const target = libpqTarget(urls.adminUrl, database);
  await run(
    'pg_restore',
    ['--exit-on-error', '--single-transaction', `--dbname=${target.uri}`, file],
    target.env,
  );
  return migrateDatabase(urls.ownerUrl);
}

function onDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}
