import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A session compaction step compacts at most COMPACTOR_SESSION_STEP_MESSAGES messages; one
 * that stopped there before the conversation was down to its keep share is `cut_short`, and
 * the conversation's next run continues the way down even though it is under the trigger.
 * Steps recorded before were whole (false).
 */
export class CompactionStepsCutShort1760000000019 implements MigrationInterface {
  name = 'CompactionStepsCutShort1760000000019';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE compactions ADD COLUMN cut_short boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE compactions DROP COLUMN cut_short`);
  }
}
