import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `engram_outbox_sent` locks its rows in id order before it deletes them. Two relays remove
 * the same published rows at once when a sweep took a writer's rows before the writer removed
 * them (under heavy ingest its removals queue up past the writer's grace). A plain
 * `DELETE … WHERE id = ANY(ids)` locks rows in the order of its plan: by the primary key for
 * a few ids, in table order for many, and a lease or a failed attempt moves a row in the
 * table, so two removals could take the same rows in opposite orders and deadlock (40P01,
 * seen in the embedder's sweep). In one order, the second waits for the first instead, and
 * finds the rows gone.
 */
export class OutboxSentInIdOrder1760000000017 implements MigrationInterface {
  name = 'OutboxSentInIdOrder1760000000017';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION engram_outbox_sent(ids bigint[])
        RETURNS void
        LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
        AS $$
          DELETE FROM outbox
           WHERE id IN (SELECT o.id FROM outbox o WHERE o.id = ANY(ids) ORDER BY o.id FOR UPDATE)
        $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION engram_outbox_sent(ids bigint[])
        RETURNS void
        LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
        AS $$ DELETE FROM outbox WHERE id = ANY(ids) $$;
    `);
  }
}
