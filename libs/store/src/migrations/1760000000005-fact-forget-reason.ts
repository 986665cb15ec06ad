import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Why a fact was forgotten: memory_forget closes a fact's validity (valid_to) and
 * keeps the row; the caller's reason is kept beside it, for whoever later asks why
 * the agent stopped remembering. NULL for open facts, superseded facts (superseded_by
 * says why) and forgets that gave no reason.
 */
export class FactForgetReason1760000000005 implements MigrationInterface {
  name = 'FactForgetReason1760000000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE facts ADD COLUMN forget_reason text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE facts DROP COLUMN forget_reason`);
  }
}
