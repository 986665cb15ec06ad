import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@engram/store';

/** One [STATE:key] value of an agent, as stored. */
export interface StateRow {
  readonly key: string;
  readonly value: string;
  readonly statedAt: Date;
  readonly updatedAt: Date;
  readonly sourceMessageId: string | null;
}

/** Reads of an agent's key/value state, in the caller's tenant transaction. */
@Injectable()
export class StateRepository {
  /** The agent's entries by key; only `keys` when some are named. */
  async list(manager: EntityManager, agent: string, keys: readonly string[]): Promise<StateRow[]> {
    const rows: Array<{
      key: string;
      value: string;
      stated_at: Date;
      updated_at: Date;
      source_message_id: string | null;
    }> = await manager.query(
      `SELECT key, value, stated_at, updated_at, source_message_id::text
         FROM state
        WHERE agent = $1 AND (cardinality($2::text[]) = 0 OR key = ANY($2::text[]))
        ORDER BY key`,
      [agent, keys],
    );
    return rows.map((r) => ({
      key: r.key,
      value: r.value,
      statedAt: r.stated_at,
      updatedAt: r.updated_at,
      sourceMessageId: r.source_message_id,
    }));
  }
}
