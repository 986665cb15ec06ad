import { Injectable } from '@nestjs/common';
import type { EntityManager, StateRow } from '@engram/store';

/** One [STATE:key] value of an agent, as stored (mem.rpc.state.list's entry). */
export type StateEntry = Pick<StateRow, 'key' | 'value' | 'statedAt' | 'updatedAt' | 'sourceMessageId'>;

/** Reads of an agent's key/value state, in the caller's tenant transaction. */
@Injectable()
export class StateRepository {
  /** The agent's entries by key; only `keys` when some are named. */
  list(manager: EntityManager, agent: string, keys: readonly string[]): Promise<StateEntry[]> {
    return manager.query(
      `SELECT key, value, stated_at AS "statedAt", updated_at AS "updatedAt", source_message_id::text AS "sourceMessageId"
         FROM state
        WHERE agent = $1 AND (cardinality($2::text[]) = 0 OR key = ANY($2::text[]))
        ORDER BY key`,
      [agent, keys],
    );
  }
}
