import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A fact's history is its supersession chain: each version's `superseded_by` names the next.
 * Reading the chain back from a version (mem.rpc.facts.get, and the `first_id` every listed
 * fact carries) looks facts up by `superseded_by`, which only closed facts have: a partial
 * index keeps that a lookup rather than a scan of the tenant's facts. And mem.rpc.facts.update
 * writes versions of origin `updated`. An update's reason, like a forget's, is kept in the
 * closed version's `forget_reason`.
 */
export class FactHistory1760000000014 implements MigrationInterface {
  name = 'FactHistory1760000000014';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX facts_superseded_by ON facts (superseded_by) WHERE superseded_by IS NOT NULL;
      ALTER TABLE facts DROP CONSTRAINT facts_origin_check,
        ADD CONSTRAINT facts_origin_check CHECK (origin IN ('tag', 'extracted', 'saved', 'updated'));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE facts DROP CONSTRAINT facts_origin_check,
        ADD CONSTRAINT facts_origin_check CHECK (origin IN ('tag', 'extracted', 'saved'));
      DROP INDEX facts_superseded_by;
    `);
  }
}
