import type { DataSource, QueryRunner } from 'typeorm';

/**
 * Session-level advisory locks on a connection of their own, held while `work`
 * runs (which may use other connections and last across transactions, e.g. while
 * a model answers). Keys are text, hashed to Postgres' 64-bit lock space.
 */
async function onOwnConnection<T>(
  dataSource: DataSource,
  acquire: (lock: QueryRunner) => Promise<boolean>,
  work: () => Promise<T>,
): Promise<T | undefined> {
  const lock = dataSource.createQueryRunner();
  try {
    if (!(await acquire(lock))) return undefined;
    try {
      return await work();
    } finally {
      await lock.query(`SELECT pg_advisory_unlock_all()`);
    }
  } finally {
    await lock.release();
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
  const locked = async (lock: QueryRunner) => {
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
      (await lock.query(`SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked`, [key]))[0]
        .locked === true,
    work,
  );
}
