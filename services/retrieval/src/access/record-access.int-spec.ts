import { Client } from 'pg';
import { createScratchDatabase, type ScratchDatabase } from '@engram/testing';
import { createDataSource, TenantTransactions, type DataSource } from '@engram/store';
import { AccessRepository } from './access.repository';
import { RecordAccessUseCase, type AccessEvent } from './record-access.use-case';

/** Access statistics from mem.access.recorded batches, against real Postgres under row-level security. */
describe('RecordAccessUseCase (real Postgres)', () => {
  let db: ScratchDatabase;
  let admin: Client;
  let dataSource: DataSource;
  let recordAccess: RecordAccessUseCase;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    db = await createScratchDatabase('record-access');
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    for (const tenant of ['acme', 'globex']) {
      await admin.query(`INSERT INTO tenants (tenant_id) VALUES ($1)`, [tenant]);
      const conversation = await admin.query<{ id: string }>(
        `INSERT INTO conversations (tenant_id, agent, session_key) VALUES ($1, 'helper', 'chat') RETURNING id`,
        [tenant],
      );
      const message = await admin.query<{ id: string }>(
        `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
         VALUES ($1, $2, 'helper', 't1', 0, 1, 'user', 'hello', 1, now()) RETURNING id`,
        [tenant, conversation.rows[0]!.id],
      );
      ids[tenant] = message.rows[0]!.id;
    }
    dataSource = createDataSource(db.appUrl, { poolSize: 2, applicationName: 'record-access-spec' });
    await dataSource.initialize();
    recordAccess = new RecordAccessUseCase(new TenantTransactions(dataSource), new AccessRepository());
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await admin?.end();
    await db?.drop();
  });

  const event = (tenantId: string, eventId: string, at: string): AccessEvent => ({
    tenantId,
    eventId,
    refs: [`message:${ids[tenantId]}`],
    at: new Date(at),
  });
  const counts = async (): Promise<Array<[string, number, string]>> =>
    (
      await admin.query<{ tenant_id: string; access_count: number; last: string }>(
        `SELECT tenant_id, access_count, last_accessed_at::text AS last FROM item_access ORDER BY tenant_id`,
      )
    ).rows.map(
      (r) => [r.tenant_id, r.access_count, new Date(r.last).toISOString()] as [string, number, string],
    );

  it("counts each tenant's events for its own items, each event once, whatever the batches", async () => {
    await recordAccess.record([
      event('acme', 'e1', '2026-01-01T10:00:00Z'),
      event('globex', 'g1', '2026-01-01T11:00:00Z'),
      event('acme', 'e2', '2026-01-01T12:00:00Z'),
      event('acme', 'e1', '2026-01-01T10:00:00Z'), // delivered twice in one batch
    ]);
    // A batch redelivered after a crash: e2 was counted already, e3 is new.
    await recordAccess.record([
      event('acme', 'e2', '2026-01-01T12:00:00Z'),
      event('acme', 'e3', '2026-01-01T09:00:00Z'),
    ]);
    expect(await counts()).toEqual([
      ['acme', 3, '2026-01-01T12:00:00.000Z'],
      ['globex', 1, '2026-01-01T11:00:00.000Z'],
    ]);
  });

  it('counts a batch that failed part-way once when it is delivered again', async () => {
    const [acme, globex] = await counts();
    // Its time cannot be written: the batch fails at globex, after acme's event.
    const bad = { ...event('globex', 'g2', '2026-01-02T00:00:00Z'), at: new Date(Number.NaN) };
    await expect(recordAccess.record([event('acme', 'e4', '2026-01-02T00:00:00Z'), bad])).rejects.toThrow();
    await recordAccess.record([
      event('acme', 'e4', '2026-01-02T00:00:00Z'),
      event('globex', 'g2', '2026-01-02T00:00:00Z'),
    ]);
    expect(await counts()).toEqual([
      ['acme', acme![1] + 1, '2026-01-02T00:00:00.000Z'],
      ['globex', globex![1] + 1, '2026-01-02T00:00:00.000Z'],
    ]);
  });
});
