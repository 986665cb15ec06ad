import type { MigrationInterface, QueryRunner } from 'typeorm';
import { tenantIsolation } from './1760000000000-transcript';

/**
 * A scene node's importance curve: its stored and effective importance and its status, one
 * point per patrol run (after the run's decay step), plus the point of the run that made it
 * (its first value). Written by the patrol in the transaction of the step it records, keyed by
 * (node, run, step), so a resumed run never writes a point twice.
 */
export class NodeHistory1760000000015 implements MigrationInterface {
  name = 'NodeHistory1760000000015';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE node_history (
        tenant_id text NOT NULL REFERENCES tenants (tenant_id),
        node_id bigint NOT NULL REFERENCES memory_nodes (id),
        run_id bigint NOT NULL REFERENCES patrol_runs (id),
        -- 'scenes': the run made the node; 'decay': after the run's decay step.
        step text NOT NULL CHECK (step IN ('scenes', 'decay')),
        importance real NOT NULL,
        effective_importance real NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'dying', 'dead')),
        recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, node_id, run_id, step)
      );
      ${tenantIsolation('node_history')}
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE node_history`);
  }
}
