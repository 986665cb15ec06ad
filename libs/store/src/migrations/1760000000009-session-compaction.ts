import type { MigrationInterface, QueryRunner } from 'typeorm';
import { tenantIsolation } from './1760000000000-transcript';

/**
 * Session compaction: when a conversation's uncompacted messages pass 75 % of its model's
 * window, its oldest ones are folded into a rolling summary (one `compactions` row per step,
 * covering everything compacted so far) and marked `messages.compacted_at` — never deleted.
 * A step is named by the newest message it compacted (UNIQUE (conversation_id,
 * last_message_id)), so two writers can never both record it. The context builder reads
 * the latest row (`ORDER BY id DESC LIMIT 1`) and the messages with `compacted_at IS NULL`,
 * which a partial index keeps cheap however long the conversation. `announced_at` is set
 * once mem.compaction.created was stored; a run first re-announces what a crash left.
 */
export class SessionCompaction1760000000009 implements MigrationInterface {
  name = 'SessionCompaction1760000000009';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE compactions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id text NOT NULL,
        conversation_id bigint NOT NULL REFERENCES conversations (id),
        agent text NOT NULL,
        content text NOT NULL,
        first_message_id bigint,
        last_message_id bigint NOT NULL,
        message_count integer,
        compacted_tokens integer,
        token_estimate integer,
        earliest_at timestamptz,
        latest_at timestamptz,
        model text NOT NULL,
        fact_ids bigint[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        announced_at timestamptz,
        UNIQUE (conversation_id, last_message_id)
      );
      CREATE INDEX compactions_latest ON compactions (conversation_id, id DESC);
      CREATE INDEX compactions_unannounced ON compactions (conversation_id) WHERE announced_at IS NULL;
      ${tenantIsolation('compactions')}

      CREATE INDEX messages_uncompacted ON messages (conversation_id, created_at, stream_seq, position, id) WHERE compacted_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX messages_uncompacted;
      DROP TABLE compactions;
    `);
  }
}
