import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A message under a leaf carries `summarised_at`, stamped in the transaction that links it to
 * its leaf, and the partial index holds each conversation's messages still waiting for one. The
 * summary tree's next leaf then reads only what is pending: the anti-join it replaces read every
 * message the conversation ever had, on every run (most of Postgres's work once a long
 * conversation's tree had caught up). Messages already under a leaf take the leaf's time.
 */
export class MessagesSummarised1760000000022 implements MigrationInterface {
  name = 'MessagesSummarised1760000000022';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE messages ADD COLUMN summarised_at timestamptz;
      -- The owner reads every tenant's rows only here, for the stamp.
      ALTER TABLE messages NO FORCE ROW LEVEL SECURITY;
      ALTER TABLE summaries NO FORCE ROW LEVEL SECURITY;
      ALTER TABLE summary_sources NO FORCE ROW LEVEL SECURITY;
      UPDATE messages m SET summarised_at = s.created_at
        FROM summary_sources ss JOIN summaries s ON s.id = ss.summary_id
       WHERE ss.source_kind = 'message' AND ss.source_id = m.id;
      ALTER TABLE messages FORCE ROW LEVEL SECURITY;
      ALTER TABLE summaries FORCE ROW LEVEL SECURITY;
      ALTER TABLE summary_sources FORCE ROW LEVEL SECURITY;
      CREATE INDEX messages_unsummarised ON messages (conversation_id, created_at, stream_seq, position, id)
        WHERE summarised_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX messages_unsummarised; ALTER TABLE messages DROP COLUMN summarised_at`);
  }
}
