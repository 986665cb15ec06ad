import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '@engram/config';
import { migrateDatabase, setupDatabase } from '@engram/store';
import type { ScratchDatabase } from './scratch-database';

/**
 * Not `engram_t_`: those belong to jest runs (and are dropped once their run ended),
 * and a benchmark may well run while someone runs the tests.
 */
const STANDALONE_PREFIX = 'engram_bench_';

/** The name `createMigratedDatabase(label, { fixedName: true })` gives its database. */
export function fixedDatabaseName(label: string): string {
  return `${STANDALONE_PREFIX}${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;
}

export interface MigratedDatabaseOptions {
  /**
   * Name the database `engram_bench_<label>` exactly instead of adding a random suffix: a
   * database kept across runs (a benchmark's cached corpus). If it exists it is set up and
   * migrated again (both idempotent) and reused as it is.
   */
  readonly fixedName?: boolean;
}

/**
 * A fresh database with every migration applied, created from nothing (roles,
 * extensions, schema) rather than copied from jest's template: for benchmarks and
 * tools that run outside jest. The caller drops it (or keeps it, with `fixedName`).
 */
export async function createMigratedDatabase(
  label: string,
  options: MigratedDatabaseOptions = {},
): Promise<ScratchDatabase> {
  const config = loadConfig(['ENGRAM_PG_ADMIN_URL', 'DATABASE_OWNER_URL', 'DATABASE_URL']);
  const base = fixedDatabaseName(label);
  const name = options.fixedName ? base : `${base}_${randomBytes(3).toString('hex')}`;
  const on = (url: string) => {
    const parsed = new URL(url);
    parsed.pathname = `/${name}`;
    return parsed.toString();
  };
  const dropDatabase = async () => {
    const client = new Client({ connectionString: config.ENGRAM_PG_ADMIN_URL });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
  try {
    await setupDatabase(
      {
        adminUrl: config.ENGRAM_PG_ADMIN_URL,
        ownerUrl: config.DATABASE_OWNER_URL,
        appUrl: config.DATABASE_URL,
      },
      name,
    );
    await migrateDatabase(on(config.DATABASE_OWNER_URL));
  } catch (error) {
    await dropDatabase().catch(() => undefined);
    throw error;
  }
  return {
    name,
    appUrl: on(config.DATABASE_URL),
    ownerUrl: on(config.DATABASE_OWNER_URL),
    adminUrl: on(config.ENGRAM_PG_ADMIN_URL),
    drop: dropDatabase,
  };
}
