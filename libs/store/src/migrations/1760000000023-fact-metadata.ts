import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A fact carries the caller's metadata (a JSON object: mem0's metadata, a LangGraph item's
 * namespace and key) and the idempotency key it was saved with, both copied to each new
 * version. Lists and searches filter by containment (`metadata @> …`), through a GIN index
 * over the facts that have any.
 */
export class FactMetadata1760000000023 implements MigrationInterface {
  name = 'FactMetadata1760000000023';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE facts ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb
        CHECK (jsonb_typeof(metadata) = 'object');
      ALTER TABLE facts ADD COLUMN save_key text;
      CREATE INDEX facts_metadata ON facts USING gin (tenant_id, metadata jsonb_path_ops)
        WHERE metadata <> '{}'::jsonb;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX facts_metadata; ALTER TABLE facts DROP COLUMN save_key, DROP COLUMN metadata`);
  }
}
