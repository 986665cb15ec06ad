import { DataSource, type DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';

export const MIGRATIONS_TABLE = 'engram_migrations';

/** A migration class, as MIGRATIONS lists them. */
export type Migration = (typeof MIGRATIONS)[number];

/** How long a query waits for a free connection of the pool before it fails. */
export const POOL_WAIT_MS = 30_000;

/**
 * How long a connection may sit idle in the pool before it is closed: longer than the interval of
 * any periodic work (the vector sweep's 30 s, the index reconciler's and the patrol's 60 s), so
 * that work finds its connection open. With pg's 10 s, each pass opened a new Postgres backend
 * (a fork, authentication, cold catalog caches), costing more than the pass's own queries.
 */
export const POOL_IDLE_MS = 5 * 60_000;

/**
 * The one way a DataSource is configured: migrations only, never synchronize, and no entities —
 * every query is plain SQL on an EntityManager (repositories, and libs/store's own functions).
 */
export function dataSourceOptions(
  url: string,
  options: { poolSize: number; applicationName: string; migrations?: readonly Migration[] },
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [],
    migrations: [...(options.migrations ?? MIGRATIONS)],
    migrationsTableName: MIGRATIONS_TABLE,
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    // A query never waits forever for a connection: a starved pool fails the work (and its
    // consumer retries it) instead of hanging it, and every lock it holds is released.
    extra: {
      max: options.poolSize,
      application_name: options.applicationName,
      connectionTimeoutMillis: POOL_WAIT_MS,
      idleTimeoutMillis: POOL_IDLE_MS,
    },
  };
}

export function createDataSource(
  url: string,
  options: { poolSize: number; applicationName: string; migrations?: readonly Migration[] },
): DataSource {
  return new DataSource(dataSourceOptions(url, options));
}
