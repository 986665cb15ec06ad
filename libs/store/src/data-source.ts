import { DataSource, type DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export const MIGRATIONS_TABLE = 'engram_migrations';

/** A migration class, as MIGRATIONS lists them. */
export type Migration = (typeof MIGRATIONS)[number];

/** How long a query waits for a free connection of the pool before it fails. */
export const POOL_WAIT_MS = 30_000;

/** The one way a DataSource is configured: migrations only, never synchronize. */
export function dataSourceOptions(
  url: string,
  options: { poolSize: number; applicationName: string; migrations?: readonly Migration[] },
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
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
    },
  };
}

export function createDataSource(
  url: string,
  options: { poolSize: number; applicationName: string; migrations?: readonly Migration[] },
): DataSource {
  return new DataSource(dataSourceOptions(url, options));
}
