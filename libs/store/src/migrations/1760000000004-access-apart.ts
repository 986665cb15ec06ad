import type { MigrationInterface, QueryRunner } from 'typeorm';
import { tenantIsolation } from './1760000000000-transcript';

/**
 * Access statistics live apart from what was accessed, like vectors: a search that
 * returns ten items bumps ten counters, and bumping a counter on the transcript row
 * would re-insert that row into every index of the transcript (a non-HOT update).
 * One narrow row per accessed item instead; items never accessed have none.
 * Access events are applied once each (access_events remembers which).
 */
export class AccessApart1760000000004 implements MigrationInterface {
  name = 'AccessApart1760000000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE item_access (
        item_kind text NOT NULL CHECK (item_kind IN ('message', 'summary', 'fact')),
        item_id bigint NOT NULL,
        tenant_id text NOT NULL,
        access_count integer NOT NULL DEFAULT 0,
        last_accessed_at timestamptz NOT NULL,
        PRIMARY KEY (item_kind, item_id)
      );
      -- Access events already applied: a redelivered event bumps nothing twice.
      CREATE TABLE access_events (
        tenant_id text NOT NULL,
        event_id text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, event_id)
      );
      ${tenantIsolation('item_access')}
      ${tenantIsolation('access_events')}
      ALTER TABLE messages DROP COLUMN access_count, DROP COLUMN last_accessed_at;
      ALTER TABLE summaries DROP COLUMN access_count, DROP COLUMN last_accessed_at;
      ALTER TABLE facts DROP COLUMN access_count, DROP COLUMN last_accessed_at;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE messages ADD COLUMN access_count integer NOT NULL DEFAULT 0, ADD COLUMN last_accessed_at timestamptz;
      ALTER TABLE summaries ADD COLUMN access_count integer NOT NULL DEFAULT 0, ADD COLUMN last_accessed_at timestamptz;
      ALTER TABLE facts ADD COLUMN access_count integer NOT NULL DEFAULT 0, ADD COLUMN last_accessed_at timestamptz;
      DROP TABLE item_access, access_events;
    `);
  }
}
