import { Injectable } from '@nestjs/common';
import { TenantTransactions, type DiaryRow, type NodeHistoryRow, type ThinkNoteRow } from '@engram/store';
import { nodeColumns, type StoredNode } from './scene-node';

export interface NodesQuery {
  /** Null: every cluster of the being. */
  readonly clusterId: string | null;
  /** Empty: every status. */
  readonly statuses: readonly string[];
  readonly limit: number;
  /** Empty: any node. */
  readonly nodeIds: readonly string[];
}

/** A point of a node's importance curve, as `history` reads it. */
export type NodeHistoryPoint = Pick<
  NodeHistoryRow,
  'run_id' | 'step' | 'importance' | 'effective_importance' | 'status' | 'recorded_at'
>;

/**
 * A being's memory as the dashboard looks at it: reads only. Unlike recall, reading a node
 * here neither activates nor revives it (last_activated and reactivation_count stay).
 */
@Injectable()
export class BeingViewRepository {
  constructor(private readonly transactions: TenantTransactions) {}

  /** Nodes of the being (merged-away ones excluded), most important first, then newest. */
  nodes(tenantId: string, agent: string, query: NodesQuery): Promise<StoredNode[]> {
    return this.transactions.run(tenantId, (manager) =>
      manager.query(
        `SELECT ${nodeColumns('m')} FROM memory_nodes m
          WHERE m.agent = $1 AND m.absorbed_into IS NULL
            AND ($2::bigint IS NULL OR m.cluster_id = $2::bigint)
            AND (cardinality($3::text[]) = 0 OR m.status = ANY($3::text[]))
            AND (cardinality($5::bigint[]) = 0 OR m.id = ANY($5::bigint[]))
          ORDER BY m.importance DESC, m.id DESC
          LIMIT $4`,
        [agent, query.clusterId, query.statuses, query.limit, query.nodeIds],
      ),
    );
  }

  /** The node's points, oldest first; null when the being has no such node. */
  history(tenantId: string, agent: string, nodeId: string): Promise<NodeHistoryPoint[] | null> {
    return this.transactions.run(tenantId, async (manager) => {
      const node: unknown[] = await manager.query(
        `SELECT 1 FROM memory_nodes WHERE agent = $1 AND id = $2 AND absorbed_into IS NULL`,
        [agent, nodeId],
      );
      if (node.length === 0) return null;
      return manager.query(
        `SELECT run_id::text, step, importance, effective_importance, status, recorded_at
           FROM node_history WHERE node_id = $1
          ORDER BY run_id, step = 'decay', recorded_at`,
        [nodeId],
      );
    });
  }

  /** The newest `limit` diary days and the think notes in force, in one transaction. */
  journal(
    tenantId: string,
    agent: string,
    limit: number,
  ): Promise<{
    diary: Array<Pick<DiaryRow, 'day' | 'content' | 'updated_at'>>;
    thinkNotes: Array<Pick<ThinkNoteRow, 'id' | 'content' | 'run_id' | 'created_at'>>;
  }> {
    return this.transactions.run(tenantId, async (manager) => ({
      diary: await manager.query(
        `SELECT day::text AS day, content, updated_at FROM diary WHERE agent = $1 ORDER BY day DESC LIMIT $2`,
        [agent, limit],
      ),
      thinkNotes: await manager.query(
        `SELECT id::text, content, run_id::text, created_at FROM think_notes
          WHERE agent = $1 AND superseded_at IS NULL ORDER BY id`,
        [agent],
      ),
    }));
  }
}
