import { Pool, type PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

/**
 * The connections that hold advisory locks, apart from the DataSource's pool: a holder's
 * work needs connections of that pool, and holders taking them all (a backlog runs every
 * handler at once) would leave their work waiting for itself.
 */
const lockPools = new WeakMap<DataSource, Pool>();

function lockPool(dataSource: DataSource): Pool {
  let pool = lockPools.get(dataSource);
  if (!pool) {
    const options = dataSource.options as PostgresConnectionOptions;
    const extra = (options.extra ?? {}) as {
      max?: number;
      application_name?: string;
      connectionTimeoutMillis?: number;
      idleTimeoutMillis?: number;
    };
    pool = new Pool({
      connectionString: options.url,
      max: extra.max,
      application_name: extra.application_name,
      connectionTimeoutMillis: extra.connectionTimeoutMillis,
      idleTimeoutMillis: extra.idleTimeoutMillis,
      allowExitOnIdle: true,
    });
    // An idle lock connection that Postgres dropped is discarded by the pool; nothing to do here.
    pool.on('error', () => undefined);
    lockPools.set(dataSource, pool);
  }
  return pool;
}

/**
 * Session-level advisory locks on a connection of their own, held while `work`
 * runs (which may use other connections and last across transactions, e.g. while
 * a model answers). Keys are text, hashed to Postgres' 64-bit lock space.
 */
async function onOwnConnection<T>(
  dataSource: DataSource,
  acquire: (lock: PoolClient) => Promise<boolean>,
  work: () => Promise<T>,
): Promise<T | undefined> {
  const lock = await lockPool(dataSource).connect();
  let broken: Error | undefined;
  // A held connection that Postgres drops (a restart) emits 'error': noted, never an uncaught
  // crash; the unlock then fails and the connection is discarded (its locks died with it).
  const onError = (error: Error) => (broken = error);
  lock.on('error', onError);
  try {
    if (!(await acquire(lock))) return undefined;
    try {
      return await work();
    } finally {
      await lock.query(`SELECT pg_advisory_unlock_all()`).catch((error: Error) => (broken = error));
    }
  } finally {
    lock.off('error', onError);
    // A connection whose unlock failed may still hold the locks: closed, never reused.
    lock.release(broken ?? false);
  }
}

/**
 * Holds several advisory locks at once, taken in one statement in hash order, so two
 * holders of overlapping sets cannot deadlock.
 */
export async function withAdvisoryLocks<T>(
  dataSource: DataSource,
  keys: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  const locked = async (lock: PoolClient) => {
    await lock.query(
      `SELECT pg_advisory_lock(h) FROM (SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest($1::text[]) AS k ORDER BY 1) AS sorted`,
      [keys],
    );
    return true;
  };
  return (await onOwnConnection(dataSource, locked, work)) as T;
}

/** One lock, but giving up at once (returns undefined) when someone else holds the lock. */
export function tryWithAdvisoryLock<T>(
  dataSource: DataSource,
  key: string,
  work: () => Promise<T>,
): Promise<T | undefined> {
  return onOwnConnection(
    dataSource,
    async (lock) =>
      (await lock.query(`SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked`, [key])).rows[0]
        .locked === true,
    work,
  );
}
