import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The summary tree's invariants held by the store, whoever writes: a message lies under
 * exactly one leaf, a leaf under at most one branch, a branch under at most one root — so
 * two compactors (replicas, a redelivery) can never both summarise the same sources; the
 * loser's transaction fails on the unique index and writes nothing. A summary is announced
 * after it committed; `announced_at` says it was, so an announcement lost to a crash is
 * made on the next run (under the same msg id).
 */
export class SummaryTree1760000000008 implements MigrationInterface {
  name = 'SummaryTree1760000000008';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNIQUE INDEX summary_sources_one_parent ON summary_sources (source_kind, source_id);
      DROP INDEX summary_sources_source;
      ALTER TABLE summaries ADD COLUMN announced_at timestamptz;
      CREATE INDEX summaries_unannounced ON summaries (conversation_id) WHERE announced_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX summaries_unannounced;
      ALTER TABLE summaries DROP COLUMN announced_at;
      CREATE INDEX summary_sources_source ON summary_sources (source_kind, source_id);
      DROP INDEX summary_sources_one_parent;
    `);
  }
}
