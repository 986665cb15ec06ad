import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@engram/store';
import { nodeColumns, type StoredNode } from './scene-node';

/** A being's scene nodes (table memory_nodes), as the being itself changes them, in the caller's tenant transaction. */
@Injectable()
export class BeingNodesRepository {
  /**
   * Pins or unpins a node of the being. A pinned node never dies, so pinning a dying or dead
   * one makes it active again; unpinning leaves its status to the next patrol. Null when the
   * being has no such node (nodes merged into another included).
   */
  async pin(
    manager: EntityManager,
    agent: string,
    nodeId: string,
    pinned: boolean,
  ): Promise<StoredNode | null> {
    const rows: StoredNode[] = await manager.query(
      // A SELECT around the UPDATE, so the driver answers rows (an UPDATE alone answers [rows, count]).
      `WITH pinned AS (
         UPDATE memory_nodes m
            SET pinned = $3,
                status = CASE WHEN $3 THEN 'active' ELSE m.status END,
                updated_at = CASE WHEN m.pinned IS DISTINCT FROM $3 OR ($3 AND m.status <> 'active')
                                  THEN now() ELSE m.updated_at END
          WHERE m.agent = $1 AND m.id = $2 AND m.absorbed_into IS NULL
          RETURNING ${nodeColumns('m')}
       )
       SELECT * FROM pinned`,
      [agent, nodeId, pinned],
    );
    return rows[0] ?? null;
  }
}
