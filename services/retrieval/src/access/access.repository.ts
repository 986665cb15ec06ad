import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@engram/store';

export interface AccessBump {
  readonly kind: string;
  readonly id: string;
  readonly count: number;
  readonly at: Date;
}

/** Access statistics (table item_access) and the events already applied, under the caller's tenant. */
@Injectable()
export class AccessRepository {
  /** Of these events, the ones not applied before (and now marked applied). */
  async claimEvents(manager: EntityManager, tenantId: string, eventIds: string[]): Promise<Set<string>> {
    const rows: Array<{ event_id: string }> = await manager.query(
      `INSERT INTO access_events (tenant_id, event_id) SELECT $1, unnest($2::text[])
       ON CONFLICT DO NOTHING RETURNING event_id`,
      [tenantId, eventIds],
    );
    return new Set(rows.map((r) => r.event_id));
  }

  async bump(manager: EntityManager, tenantId: string, bumps: AccessBump[]): Promise<void> {
    if (bumps.length === 0) return;
    await manager.query(
      `INSERT INTO item_access (item_kind, item_id, tenant_id, access_count, last_accessed_at)
       SELECT b.kind, b.id, $1, b.count, b.at
         FROM unnest($2::text[], $3::bigint[], $4::int[], $5::timestamptz[]) AS b(kind, id, count, at)
       ON CONFLICT (item_kind, item_id) DO UPDATE
         SET access_count = item_access.access_count + EXCLUDED.access_count,
             last_accessed_at = greatest(item_access.last_accessed_at, EXCLUDED.last_accessed_at)`,
      [
        tenantId,
        bumps.map((b) => b.kind),
        bumps.map((b) => b.id),
        bumps.map((b) => b.count),
        bumps.map((b) => b.at.toISOString()),
      ],
    );
  }
}
