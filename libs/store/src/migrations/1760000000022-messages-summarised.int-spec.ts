import { Client } from 'pg';
import { createScratchDatabase, type ScratchDatabase } from '@engram/testing';
import type { QueryRunner } from 'typeorm';
import { migrateDatabase } from '../setup/database-setup';
import { MessagesSummarised1760000000022 } from './1760000000022-messages-summarised';

/**
 * Migration 022 on a database as migration 021 left it, holding three messages of which a
 * leaf covers two: those two take the leaf's time and the third stays pending.
 */
describe('migration 022, messages stamped when summarised (real Postgres)', () => {
  let db: ScratchDatabase;
  let admin: Client;
  let conversation: string;
  let leaf: { id: string; created_at: Date };

  const rows = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    (await admin.query(sql, params)).rows as T[];

  beforeAll(async () => {
    db = await createScratchDatabase('messages_summarised', { through: 'FtsLanguages1760000000021' });
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme')`);
    [{ id: conversation }] = await rows<{ id: string }>(
      `INSERT INTO conversations (tenant_id, agent, session_key) VALUES ('acme', 'helper', 's') RETURNING id::text`,
    );
    const messages = await rows<{ id: string }>(
      `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
       SELECT 'acme', $1, 'helper', 't' || n, 0, n, 'user', 'message ' || n, 10, now() + n * interval '1 second'
         FROM generate_series(1, 3) n RETURNING id::text`,
      [conversation],
    );
    [leaf] = await rows<{ id: string; created_at: Date }>(
      `INSERT INTO summaries (tenant_id, conversation_id, agent, depth, content, earliest_at, latest_at, message_count, token_estimate, model, created_at)
       VALUES ('acme', $1, 'helper', 0, 'two messages', now(), now(), 2, 10, 'test', now() - interval '1 hour') RETURNING id::text, created_at`,
      [conversation],
    );
    await admin.query(
      `INSERT INTO summary_sources (tenant_id, summary_id, source_kind, source_id, ordinal)
       SELECT 'acme', $1, 'message', s.id, s.n FROM unnest($2::bigint[]) WITH ORDINALITY AS s(id, n)`,
      [leaf!.id, messages.slice(0, 2).map((m) => m.id)],
    );
    expect(await migrateDatabase(db.ownerUrl, { through: 'MessagesSummarised1760000000022' })).toEqual([
      'MessagesSummarised1760000000022',
    ]);
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await db?.drop();
  });

  it("stamps the messages under a leaf with the leaf's time and leaves the rest pending", async () => {
    const stamped = await rows<{ content: string; summarised_at: Date | null }>(
      `SELECT content, summarised_at FROM messages ORDER BY stream_seq`,
    );
    expect(stamped).toEqual([
      { content: 'message 1', summarised_at: leaf.created_at },
      { content: 'message 2', summarised_at: leaf.created_at },
      { content: 'message 3', summarised_at: null },
    ]);
  });

  it('goes down and up again', async () => {
    const runner = { query: (sql: string) => admin.query(sql) } as unknown as QueryRunner;
    await new MessagesSummarised1760000000022().down(runner);
    expect(
      await rows(`SELECT 1 FROM information_schema.columns WHERE column_name = 'summarised_at'`),
    ).toHaveLength(0);
    await new MessagesSummarised1760000000022().up(runner);
    expect(await rows(`SELECT 1 FROM messages WHERE summarised_at IS NOT NULL`)).toHaveLength(2);
  });
});

describe('the partial index of pending messages (real Postgres)', () => {
  // A database migrated while empty. Where the migration stamps existing rows, the index is
  // built over HOT chains its UPDATE broke, so Postgres hides it from any transaction older
  // than the migration (pg_index.indcheckxmin): a test there depends on what else is running.
  let db: ScratchDatabase;
  let admin: Client;

  beforeAll(async () => {
    db = await createScratchDatabase('unsummarised_plan');
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await db?.drop();
  });

  it("reads a conversation's pending messages through it", async () => {
    // A long conversation, nearly all of it summarised: the partial index is the small one.
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme')`);
    const {
      rows: [{ id: conversation }],
    } = await admin.query<{ id: string }>(
      `INSERT INTO conversations (tenant_id, agent, session_key) VALUES ('acme', 'helper', 's') RETURNING id::text`,
    );
    await admin.query(
      `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at, summarised_at)
       SELECT 'acme', $1, 'helper', 't' || n, 0, n, 'user', 'message', 10, now() - n * interval '1 minute',
              CASE WHEN n > 3 THEN now() END
         FROM generate_series(1, 5000) n`,
      [conversation],
    );
    await admin.query('ANALYZE messages');
    const { rows: plan } = await admin.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT id FROM messages WHERE conversation_id = $1 AND summarised_at IS NULL
        ORDER BY created_at, stream_seq, position, id LIMIT 160`,
      [conversation],
    );
    expect(plan.map((p) => p['QUERY PLAN']).join('\n')).toContain('messages_unsummarised');
  });
});
