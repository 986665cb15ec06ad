import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A conversation's order with its last tie-breaker: (conversation_id, created_at, stream_seq,
 * position, id), the exact ORDER BY of browsing and of a search's neighbouring turns. Without
 * id the planner had to sort each step, and with RLS's tenant condition at hand it preferred
 * ANDing in the tenant's whole posting list of the tenant+tsv GIN index (49 ms for 40 seeds at
 * 1 M messages against 3 ms with this index).
 */
export class ConversationOrderById1760000000007 implements MigrationInterface {
  name = 'ConversationOrderById1760000000007';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX messages_conversation_order_by_id ON messages (conversation_id, created_at, stream_seq, position, id);
      DROP INDEX messages_conversation_order;
      ALTER INDEX messages_conversation_order_by_id RENAME TO messages_conversation_order;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX messages_conversation_order_without_id ON messages (conversation_id, created_at, stream_seq, position);
      DROP INDEX messages_conversation_order;
      ALTER INDEX messages_conversation_order_without_id RENAME TO messages_conversation_order;
    `);
  }
}
