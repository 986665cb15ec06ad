import { Injectable } from '@nestjs/common';
import {
  DEATH_THRESHOLD,
  EFFECTIVE_IMPORTANCE_SQL,
  FADE_FACTOR_SQL,
  parseVector,
  storedScene,
  type Scene,
} from '@engram/being';
import type { ClusterRow, EntityManager, MemoryNodeRow } from '@engram/store';

/** A cluster of a being as the patrol's steps see it: the row, and how many nodes it holds (active, all). */
export interface ClusterTally extends Pick<
  ClusterRow,
  'id' | 'name' | 'root' | 'parentId' | 'centroid' | 'centroidModel' | 'createdAt'
> {
  readonly active: number;
  readonly nodes: number;
}

/** A node as the patrol's steps read it (the RPCs answer nodes through being/scene-node.ts). */
export interface PatrolNode {
  readonly id: string;
  readonly clusterId: string;
  readonly scene: Scene;
  readonly feeling: string | null;
  readonly importance: number;
  readonly status: 'active' | 'dying' | 'dead';
  readonly fresh: boolean;
  readonly pinned: boolean;
  readonly sessionCount: number;
  readonly reactivationCount: number;
  /** The day it was made (YYYY-MM-DD). */
  readonly madeOn: string;
}

/**
 * The patrol's reads and shared writes of a being's clusters and nodes, in the caller's
 * tenant transaction (RLS confines them to the tenant; SQL names the agent).
 */
@Injectable()
export class SceneNodesRepository {
  /** Every cluster of the being, with its active and total node counts. */
  async clusters(manager: EntityManager, agent: string): Promise<ClusterTally[]> {
    const rows: Array<{
      id: string;
      name: string;
      root: 'business' | 'private' | null;
      parent_id: string;
      centroid: string | null;
      centroid_model: string | null;
      created_at: Date;
      active: number;
      nodes: number;
    }> = await manager.query(
      `SELECT c.id::text, c.name, c.root, c.parent_id::text, c.centroid::text, c.centroid_model, c.created_at,
              count(m.id) FILTER (WHERE m.status = 'active')::int AS active, count(m.id)::int AS nodes
         FROM clusters c LEFT JOIN memory_nodes m ON m.cluster_id = c.id
        WHERE c.agent = $1 GROUP BY c.id ORDER BY c.id`,
      [agent],
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      root: r.root,
      parentId: r.parent_id,
      centroid: r.centroid === null ? null : parseVector(r.centroid),
      centroidModel: r.centroid_model,
      createdAt: r.created_at,
      active: r.active,
      nodes: r.nodes,
    }));
  }

  /** Whether the run's ❶ made a node of a scene note (its first importance point is recorded then). */
  async madeNodesIn(manager: EntityManager, runId: string): Promise<boolean> {
    const [row]: Array<{ made: boolean }> = await manager.query(
      `SELECT EXISTS (SELECT 1 FROM node_history WHERE run_id = $1 AND step = 'scenes') AS made`,
      [runId],
    );
    return row!.made;
  }

  /** Nodes of the being matching a condition over memory_nodes' columns (no user text in it). */
  async nodes(
    manager: EntityManager,
    agent: string,
    where: string,
    params: unknown[] = [],
  ): Promise<PatrolNode[]> {
    const rows: Array<
      Pick<
        MemoryNodeRow,
        | 'id'
        | 'cluster_id'
        | 'scene'
        | 'feeling'
        | 'importance'
        | 'status'
        | 'fresh'
        | 'pinned'
        | 'session_count'
        | 'reactivation_count'
      > & { readonly made_on: string }
    > = await manager.query(
      `SELECT id::text, cluster_id::text, scene, feeling, importance, status, fresh, pinned, session_count,
              reactivation_count, created_at::date::text AS made_on
         FROM memory_nodes WHERE agent = $1 AND (${where}) ORDER BY id`,
      [agent, ...params],
    );
    return rows.map((r) => ({
      id: r.id,
      clusterId: r.cluster_id,
      scene: storedScene(r.scene),
      feeling: r.feeling,
      importance: r.importance,
      status: r.status,
      fresh: r.fresh,
      pinned: r.pinned,
      sessionCount: r.session_count,
      reactivationCount: r.reactivation_count,
      madeOn: r.made_on,
    }));
  }

  /**
   * Each cluster's centroid: the mean vector of its active nodes (by the model most of them
   * were embedded with); none when it has no active node.
   */
  async recomputeCentroids(manager: EntityManager, agent: string): Promise<void> {
    await manager.query(
      `WITH means AS (
         SELECT DISTINCT ON (cluster_id) cluster_id, embedding_model, avg(embedding::vector)::halfvec AS mean
           FROM memory_nodes WHERE agent = $1 AND status = 'active' AND embedding IS NOT NULL
          GROUP BY cluster_id, embedding_model ORDER BY cluster_id, count(*) DESC, embedding_model)
       UPDATE clusters c SET centroid = m.mean, centroid_model = m.embedding_model
         FROM clusters c0 LEFT JOIN means m ON m.cluster_id = c0.id
        WHERE c.id = c0.id AND c.agent = $1
          AND (c.centroid IS DISTINCT FROM m.mean OR c.centroid_model IS DISTINCT FROM m.embedding_model)`,
      [agent],
    );
  }

  /** Moves every node of `from` into `to`. */
  async moveNodes(manager: EntityManager, from: string, to: string): Promise<void> {
    await manager.query(`UPDATE memory_nodes SET cluster_id = $2, updated_at = now() WHERE cluster_id = $1`, [
      from,
      to,
    ]);
  }

  /** Deletes those of `ids` that are sub-clusters with neither nodes nor children; answers how many went. */
  async deleteEmptyClusters(manager: EntityManager, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const [row]: Array<{ gone: number }> = await manager.query(
      `SELECT engram_delete_empty_clusters($1::bigint[]) AS gone`,
      [ids],
    );
    return row!.gone;
  }

  /**
   * Marks nodes dead as consolidation decides (absorbed into a survivor, or let go): their
   * importance drops so that their effective importance is at the threshold, so only a new
   * recall (not the revival step of the same run) brings a let-go node back.
   */
  async makeDead(manager: EntityManager, ids: readonly string[], absorbedInto: string | null): Promise<void> {
    if (ids.length === 0) return;
    await manager.query(
      `UPDATE memory_nodes SET status = 'dead', fresh = false, absorbed_into = $2, updated_at = now(),
              importance = least(importance, ${DEATH_THRESHOLD} / ${FADE_FACTOR_SQL})
        WHERE id = ANY($1::bigint[]) AND NOT pinned`,
      [ids, absorbedInto],
    );
  }

  /**
   * Records the importance and status of the being's nodes (those merged into another are
   * not nodes of their own) as of `step` of run `runId` — every node, or those of `ids` —
   * once: a point already recorded for (node, run, step) is kept. A node still dead at its last
   * point gets none (its curve ends at its death until it is revived), so the history grows
   * with the living nodes, not with every node that ever died.
   */
  async recordHistory(
    manager: EntityManager,
    tenantId: string,
    agent: string,
    runId: string,
    step: 'scenes' | 'decay',
    ids?: readonly string[],
  ): Promise<void> {
    await manager.query(
      `INSERT INTO node_history (tenant_id, node_id, run_id, step, importance, effective_importance, status)
       SELECT $1, id, $3, $4, importance, ${EFFECTIVE_IMPORTANCE_SQL}, status FROM memory_nodes
        WHERE agent = $2 AND absorbed_into IS NULL AND ($5::bigint[] IS NULL OR id = ANY($5::bigint[]))
          AND (status <> 'dead' OR (SELECT h.status FROM node_history h
                                     WHERE h.tenant_id = $1 AND h.node_id = memory_nodes.id AND h.run_id <> $3
                                     ORDER BY h.run_id DESC, h.step = 'decay' DESC LIMIT 1) IS DISTINCT FROM 'dead')
       ON CONFLICT (tenant_id, node_id, run_id, step) DO NOTHING`,
      [tenantId, agent, runId, step, ids ?? null],
    );
  }
}
