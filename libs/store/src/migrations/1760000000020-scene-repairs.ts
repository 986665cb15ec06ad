import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A scene note that did not parse is offered to a language model for repair once: the patrol
 * stamps `repair_tried_at` in the transaction that records its repair step, whatever the model
 * answered, so a note the model could not mend is not offered again. Notes marked before were
 * never offered (NULL). The partial index holds the notes still waiting for their offer.
 */
export class SceneRepairs1760000000020 implements MigrationInterface {
  name = 'SceneRepairs1760000000020';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE notes ADD COLUMN repair_tried_at timestamptz;
      CREATE INDEX notes_scenes_to_repair ON notes (tenant_id, agent, id)
        WHERE kind = 'scene' AND parse_failed AND repair_tried_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX notes_scenes_to_repair; ALTER TABLE notes DROP COLUMN repair_tried_at`);
  }
}
