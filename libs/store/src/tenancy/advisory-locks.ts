import type { DataSource } from 'typeorm';

/**
 * Session-level advisory locks on a connection of their own, held while `work`
 * runs (which may use other connections and last across transactions, e.g. while
 * a model answers). Keys are text, hashed to Postgres' 64-bit lock space.
 */
export async function withAdvisoryLock<T>(dataSource: DataSource, key: string, work: () => Promise<T>): Promise<T> {
  const lock = dataSource.createQueryRunner();
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [key]);
    try {
      return await work();
    } finally {
      await lock.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [key]);
    }
  } finally {
    await lock.release();
  }
}

/**
 * Holds several advisory locks at once, taken in one statement in hash order, so two
 * holders of overlapping sets cannot deadlock.
 */
export async function withAdvisoryLocks<T>(dataSource: DataSource, keys: readonly string[], work: () => Promise<T>): Promise<T> {
  const lock = dataSource.createQueryRunner();
  try {
    await lock.query(
      `SELECT pg_advisory_lock(h) FROM (SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest($1::text[]) AS k ORDER BY 1) AS sorted`,
      [keys],
    );
    try {
      return await work();
    } finally {
      await lock.query(`SELECT pg_advisory_unlock_all()`);
    }
  } finally {
    await lock.release();
  }
}

/** Like withAdvisoryLock, but gives up at once (returns undefined) when someone else holds the lock. */
export async function tryWithAdvisoryLock<T>(dataSource: DataSource, key: string, work: () => Promise<T>): Promise<T | undefined> {
  const lock = dataSource.createQueryRunner();
  try {
    const [{ locked }] = await lock.query(`SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked`, [key]);
    if (!locked) return undefined;
    try {
      return await work();
    } finally {
      await lock.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [key]);
    }
  } finally {
    await lock.release();
  }
}
