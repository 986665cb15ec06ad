import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createScratchDatabase, type ScratchDatabase } from '@engram/testing';
import { createDataSource } from '../data-source';
import { tryWithAdvisoryLock, withAdvisoryLocks } from './advisory-locks';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Advisory locks held on connections of their own while work runs on the pool (real Postgres). */
describe('withAdvisoryLocks / tryWithAdvisoryLock (real Postgres)', () => {
  let db: ScratchDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createScratchDatabase('advisory-locks');
    // Two connections: as many lock holders as the pool has connections must still get their work done.
    dataSource = createDataSource(db.appUrl, { poolSize: 2, applicationName: 'advisory-locks-spec' });
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('finishes the work of more holders than the pool has connections (the locks take none of them)', async () => {
    const done = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) =>
        withAdvisoryLocks(dataSource, [`starve/${n}`], async () => {
          await dataSource.query('SELECT pg_sleep(0.05)');
          return n;
        }),
      ),
    );
    expect(done).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('lets one holder of a key work at a time, and releases the key when the work throws', async () => {
    const timeline: string[] = [];
    const holder = (name: string, fail: boolean) =>
      withAdvisoryLocks(dataSource, ['conversation/7', `other/${name}`], async () => {
        timeline.push(`${name} in`);
        await sleep(50);
        timeline.push(`${name} out`);
        if (fail) throw new Error(`${name} failed`);
      });
    const results = await Promise.allSettled([holder('a', true), holder('b', false)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    // Never both inside: one holder's in and out, then the other's.
    expect([
      ['a in', 'a out', 'b in', 'b out'],
      ['b in', 'b out', 'a in', 'a out'],
    ]).toContainEqual(timeline);
  });

  it('gives up at once while another holds the key, and takes it once it is free', async () => {
    let release!: () => void;
    const held = withAdvisoryLocks(
      dataSource,
      ['patrol/acme'],
      () => new Promise<void>((r) => (release = r)),
    );
    await sleep(50);
    expect(await tryWithAdvisoryLock(dataSource, 'patrol/acme', async () => 'ran')).toBeUndefined();
    release();
    await held;
    expect(await tryWithAdvisoryLock(dataSource, 'patrol/acme', async () => 'ran')).toBe('ran');
  });

  it('survives Postgres dropping a held lock connection (a restart): the work ends, nothing crashes', async () => {
    const admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    try {
      const result = await withAdvisoryLocks(dataSource, ['dropped/1'], async () => {
        const { rows } = await admin.query<{ pid: number }>(
          `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        expect(rows).toHaveLength(1);
        await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
        await sleep(100); // the dropped connection's 'error' arrives while the work still runs
        return 'done';
      });
      expect(result).toBe('done');
      // The key is free again, on a fresh connection.
      expect(await tryWithAdvisoryLock(dataSource, 'dropped/1', async () => 'again')).toBe('again');
    } finally {
      await admin.end();
    }
  });
});
