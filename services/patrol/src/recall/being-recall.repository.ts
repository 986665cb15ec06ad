import { Injectable } from '@nestjs/common';
import { RECALL_LIMIT, RECALL_THRESHOLD, vectorLiteral } from '@engram/being';
import { TenantTransactions } from '@engram/store';
import { nodeColumns, type NodeRow } from '../being/scene-node';

/** What recall_memory and search_memory add to a node's reactivation count: a dead scene found counts double. */
const BUMP = `CASE WHEN m.status = 'dead' THEN 2 ELSE 1 END`;

/**
 * recall's one statement: $1 agent, $2 the message's vector, $3 its model, $4 RECALL_THRESHOLD,
 * $5 RECALL_LIMIT. Exported for the spec that reads its plan.
 */
export const SIMILAR_NODES_SQL = `WITH hits AS (
     SELECT id, embedding <=> $2::halfvec AS distance
       FROM memory_nodes
      WHERE agent = $1 AND embedding_model = $3 AND absorbed_into IS NULL
        AND 1 - (embedding <=> $2::halfvec) >= $4
      ORDER BY distance, id
      LIMIT $5
   ), bumped AS (
     UPDATE memory_nodes m SET reactivation_count = m.reactivation_count + 1, last_activated = now()
       FROM hits WHERE m.id = hits.id
     RETURNING ${nodeColumns('m')}, hits.distance
   )
   SELECT * FROM bumped ORDER BY distance, id::bigint`;

/**
 * The recall tools' reads of a being's scene nodes. Each marks what it answers as recalled
 * (reactivation_count up, last_activated now) in the same statement: that is how a faded
 * scene counts again, and how a dead one gets back above the patrol's revival threshold.
 * Nodes merged into another (absorbed_into) are part of it and never answered.
 */
@Injectable()
export class BeingRecallRepository {
  constructor(private readonly transactions: TenantTransactions) {}

  /**
   * The RECALL_LIMIT nodes of the being, of any status, most similar to `vector` (cosine, by
   * the same model) at RECALL_THRESHOLD or above, most similar first; each bumped by 1. An exact
   * scan of the being's vectors (memory_nodes_of_being), no approximate index.
   */
  similar(tenantId: string, agent: string, vector: readonly number[], model: string): Promise<NodeRow[]> {
    return this.transactions.run(tenantId, (manager) =>
      manager.query(SIMILAR_NODES_SQL, [agent, vectorLiteral(vector), model, RECALL_THRESHOLD, RECALL_LIMIT]),
    );
  }

  /** Every node of the being's cluster, oldest first, each bumped; null when the being has no such cluster. */
  cluster(tenantId: string, agent: string, clusterId: string): Promise<NodeRow[] | null> {
    return this.transactions.run(tenantId, async (manager) => {
      const found: unknown[] = await manager.query(`SELECT 1 FROM clusters WHERE agent = $1 AND id = $2`, [
        agent,
        clusterId,
      ]);
      if (found.length === 0) return null;
      return manager.query(
        `WITH bumped AS (
           UPDATE memory_nodes m SET reactivation_count = m.reactivation_count + ${BUMP}, last_activated = now()
            WHERE m.agent = $1 AND m.cluster_id = $2 AND m.absorbed_into IS NULL
           RETURNING ${nodeColumns('m')}
         )
         SELECT * FROM bumped ORDER BY id::bigint`,
        [agent, clusterId],
      );
    });
  }

  /**
   * Nodes of the being matching at least `atLeast` of the LIKE `patterns` (case-insensitive),
   * each anywhere in the scene's action, its feeling, its themes or its `when` (dates, and the
   * actions of merged items); most keywords matched first, then the most recently activated
   * (before this search). At most `limit`, each bumped.
   */
  search(
    tenantId: string,
    agent: string,
    patterns: readonly string[],
    atLeast: number,
    limit: number,
  ): Promise<NodeRow[]> {
    return this.transactions.run(tenantId, (manager) =>
      manager.query(
        `WITH hits AS (
           SELECT m.id, m.last_activated AS was_activated, matched.n AS matched
             FROM memory_nodes m
             CROSS JOIN LATERAL (
               SELECT ARRAY[m.scene ->> 'action', coalesce(m.feeling, m.scene ->> 'feeling')]
                      || m.themes
                      || ARRAY(
                           SELECT f
                             FROM jsonb_array_elements(
                                    CASE WHEN jsonb_typeof(m.scene -> 'when') = 'array'
                                         THEN m.scene -> 'when' ELSE '[]'::jsonb END) w
                             CROSS JOIN LATERAL unnest(CASE jsonb_typeof(w)
                                    WHEN 'string' THEN ARRAY[w #>> '{}']
                                    WHEN 'object' THEN ARRAY[w ->> 'date', w ->> 'action']
                                    ELSE '{}'::text[] END) AS y (f)
                            WHERE f IS NOT NULL)
                      AS texts
             ) fields
             CROSS JOIN LATERAL (
               SELECT count(*)::int AS n FROM unnest($2::text[]) p (pattern)
                WHERE EXISTS (SELECT 1 FROM unnest(fields.texts) AS x (t) WHERE t ILIKE p.pattern)
             ) matched
            WHERE m.agent = $1 AND m.absorbed_into IS NULL AND matched.n >= $3
            ORDER BY matched.n DESC, m.last_activated DESC NULLS LAST, m.id DESC
            LIMIT $4
         ), bumped AS (
           UPDATE memory_nodes m SET reactivation_count = m.reactivation_count + ${BUMP}, last_activated = now()
             FROM hits WHERE m.id = hits.id
           RETURNING ${nodeColumns('m')}, hits.matched, hits.was_activated
         )
         SELECT * FROM bumped ORDER BY matched DESC, was_activated DESC NULLS LAST, id::bigint DESC`,
        [agent, patterns, atLeast, limit],
      ),
    );
  }
}
