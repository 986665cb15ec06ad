import { Client } from 'pg';
import { createScratchDatabase, waitFor, type ScratchDatabase } from '@engram/testing';

/**
 * Two relays removing the same published rows at once (a writer's own removal and another
 * replica's sweep that published them again) never deadlock: engram_outbox_sent locks its
 * rows in id order whatever plan Postgres picks (real Postgres).
 */
describe('engram_outbox_sent (real Postgres)', () => {
  let db: ScratchDatabase;
  const clients: Client[] = [];

  async function client(settings: string[] = []): Promise<Client> {
    const c = new Client({ connectionString: db.adminUrl });
    await c.connect();
    for (const setting of settings) await c.query(`SET ${setting}`);
    clients.push(c);
    return c;
  }

  const pid = async (c: Client) =>
    (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

  /** Resolves once the backend waits for a lock (a row another transaction holds). */
  async function waitingForLock(admin: Client, backend: number): Promise<void> {
    await waitFor(
      `backend ${backend} waiting for a lock`,
      async () =>
        (
          await admin.query<{ wait: string | null }>(
            'SELECT wait_event_type AS wait FROM pg_stat_activity WHERE pid = $1',
            [backend],
          )
        ).rows[0]?.wait === 'Lock',
      10_000,
      20,
    );
  }

  beforeAll(async () => {
    db = await createScratchDatabase('outbox-store');
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await db?.drop();
  });

  it('removes rows that two callers remove in opposite scan orders, without a deadlock', async () => {
    const admin = await client();
    const inserted = await admin.query<{ id: string }>(
      `INSERT INTO outbox (tenant_id, subject, msg_id, payload)
       SELECT 'acme', 'mem.fact.upserted.acme', 'deadlock-' || g, '\\x00' FROM generate_series(1, 3) AS g
       RETURNING id::text`,
    );
    const [a, b, c] = inserted.rows.map((r) => r.id);
    // Updated last first: the table now holds them in the opposite order of their ids (a
    // lease or a failed attempt moves a row in the same way).
    for (const id of [c, b, a])
      await admin.query('UPDATE outbox SET attempts = attempts + 1 WHERE id = $1', [id]);
    const inTable = await admin.query<{ id: string }>('SELECT id::text FROM outbox ORDER BY ctid');
    expect(inTable.rows.map((r) => r.id)).toEqual([c, b, a]);

    // One caller's plan reads the rows by the primary key (id order), the other's the table (c, b, a);
    // both wait at b, held by a third transaction, and go on together once it ends.
    const byIndex = await client(['enable_seqscan = off', 'enable_bitmapscan = off']);
    const byTable = await client([
      'enable_indexscan = off',
      'enable_bitmapscan = off',
      'enable_indexonlyscan = off',
    ]);
    const holder = await client();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM outbox WHERE id = $1 FOR UPDATE', [b]);

    const [byIndexPid, byTablePid] = [await pid(byIndex), await pid(byTable)];
    const remove = (caller: Client) => caller.query('SELECT engram_outbox_sent($1::bigint[])', [[a, b, c]]);
    const first = remove(byIndex);
    await waitingForLock(admin, byIndexPid);
    const second = remove(byTable);
    await waitingForLock(admin, byTablePid);
    await holder.query('ROLLBACK');

    const outcomes = await Promise.allSettled([first, second]);
    expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'removed'))).toEqual([
      'removed',
      'removed',
    ]);
    expect(
      (await admin.query('SELECT 1 FROM outbox WHERE id = ANY($1::bigint[])', [[a, b, c]])).rowCount,
    ).toBe(0);
  });
});
