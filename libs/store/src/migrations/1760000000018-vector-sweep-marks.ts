import type { MigrationInterface, QueryRunner } from 'typeorm';
import { tenantIsolation } from './1760000000000-transcript';

/**
 * How far the embedder's sweep has looked, per tenant and kind of item: every row of the
 * tenant with an id up to `swept_id` has a vector (of some model) or no text to embed. The
 * sweep reads only rows above it (and vectors of another model, through `embeddings_tenant`),
 * so a pass over a tenant where nothing was written costs an index probe, not an anti-join of
 * all its rows. A row or a mark may be lost with a crash: a missing mark starts from 0 (one
 * full pass of that tenant), a mark never passes a row still lacking its vector.
 */
export class VectorSweepMarks1760000000018 implements MigrationInterface {
  name = 'VectorSweepMarks1760000000018';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE vector_sweep_marks (
        tenant_id text NOT NULL,
        item_kind text NOT NULL CHECK (item_kind IN ('message', 'summary', 'fact')),
        swept_id bigint NOT NULL,
        swept_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, item_kind)
      );
      ${tenantIsolation('vector_sweep_marks')}
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE vector_sweep_marks`);
  }
}
