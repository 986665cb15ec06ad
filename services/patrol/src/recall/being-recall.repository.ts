import { Injectable } from '@nestjs/common';
import { RECALL_LIMIT, RECALL_THRESHOLD, vectorLiteral } from '@engram/being';
import type { SearchMatch } from '@engram/contracts';
import { keywordSearch } from './keyword-patterns';
import type { EntityManager } from '@engram/store';
import { nodeColumns, type StoredNode } from '../being/scene-node';

/** What a recall tool adds to a node it brings back: active (and dying) +1, dead +2. */
const BUMP = `CASE WHEN m.status = 'dead' THEN 2 ELSE 1 END`;

/**
 * The recall tools' reads, each bumping what it returns (reactivation_count, last_activated)
 * in the same statement: recall is how a faded scene comes back. Nodes merged into another
 * are never returned (they live on in their survivor). Like retrieval's access counts, the
 * bumps do not wait for the disk (synchronous_commit off): a crash of Postgres itself loses
 * at most the last moment's bumps, never the store's consistency, and a recall answers
 * without an fsync. In the caller's tenant transaction, set up first by `settle`.
 */
@Injectable()
export class BeingRecallRepository {
  /** Sets the transaction up for the recall tools: bumps without an fsync, no parallel workers. */
  async settle(manager: EntityManager): Promise<void> {
    // One being's nodes are a small scan: starting parallel workers for it costs more than it saves.
    await manager.query(`SET LOCAL synchronous_commit = off; SET LOCAL max_parallel_workers_per_gather = 0`);
  }

  /**
   * The being's RECALL_LIMIT nodes of any status most similar to `vector` (by `model`'s
   * vectors) at cosine ≥ RECALL_THRESHOLD, most similar first, each bumped by 1.
   */
  recall(
    manager: EntityManager,
    agent: string,
    vector: readonly number[],
    model: string,
  ): Promise<StoredNode[]> {
    return manager.query(
      // The distance once per node (ordered by its alias), an exact scan of the being's vectors.
      `WITH hits AS (
           SELECT id, embedding <=> $3::halfvec AS distance FROM memory_nodes
            WHERE agent = $1 AND embedding_model = $2 AND absorbed_into IS NULL
            ORDER BY distance LIMIT ${RECALL_LIMIT}),
         bumped AS (
           UPDATE memory_nodes m SET reactivation_count = m.reactivation_count + 1, last_activated = now()
             FROM hits WHERE m.id = hits.id AND 1 - hits.distance >= ${RECALL_THRESHOLD}
           RETURNING ${nodeColumns('m')}, hits.distance)
         SELECT * FROM bumped ORDER BY distance, id`,
      [agent, model, vectorLiteral(vector)],
    );
  }

  /** Every node of the cluster, oldest first, bumped; null when the being has no such cluster. */
  async recallCluster(
    manager: EntityManager,
    agent: string,
    clusterId: string,
  ): Promise<StoredNode[] | null> {
    const [cluster] = await manager.query(`SELECT 1 FROM clusters WHERE agent = $1 AND id = $2`, [
      agent,
      clusterId,
    ]);
    if (!cluster) return null;
    return manager.query(
      `WITH bumped AS (
         UPDATE memory_nodes m SET reactivation_count = m.reactivation_count + ${BUMP}, last_activated = now()
          WHERE m.agent = $1 AND m.cluster_id = $2 AND m.absorbed_into IS NULL
         RETURNING ${nodeColumns('m')})
       SELECT * FROM bumped ORDER BY id`,
      [agent, clusterId],
    );
  }

  /**
   * Nodes whose action, feeling, themes or dates (and merged scenes' actions) hold the
   * keywords — any of them (or) or every one (and) — most keywords matched first, then most
   * recently activated; `limit` of them, bumped.
   */
  search(
    manager: EntityManager,
    agent: string,
    keywords: readonly string[],
    match: SearchMatch,
    limit: number,
  ): Promise<StoredNode[]> {
    const search = keywordSearch(keywords, match);
    return manager.query(
      `WITH searchable AS (
           SELECT m.id, concat_ws(' ', m.scene ->> 'action', m.feeling, m.scene ->> 'feeling',
                    array_to_string(m.themes, ' '),
                    (SELECT string_agg(CASE jsonb_typeof(w) WHEN 'string' THEN w #>> '{}'
                                            ELSE concat_ws(' ', w ->> 'date', w ->> 'action') END, ' ')
                       FROM jsonb_array_elements(CASE jsonb_typeof(m.scene -> 'when') WHEN 'array'
                                                 THEN m.scene -> 'when' ELSE '[]' END) w)) AS text,
                  m.last_activated
             FROM memory_nodes m WHERE m.agent = $1 AND m.absorbed_into IS NULL),
         scored AS (
           SELECT s.id, s.last_activated,
                  (SELECT count(*) FROM unnest($2::text[]) k WHERE s.text ILIKE k) AS matched
             FROM searchable s),
         hits AS (
           SELECT id, matched, last_activated FROM scored
            WHERE matched >= $3
            ORDER BY matched DESC, last_activated DESC NULLS LAST, id LIMIT $4),
         bumped AS (
           UPDATE memory_nodes m SET reactivation_count = m.reactivation_count + ${BUMP}, last_activated = now()
             FROM hits WHERE m.id = hits.id
           RETURNING ${nodeColumns('m')}, hits.matched, hits.last_activated AS before)
         SELECT * FROM bumped ORDER BY matched DESC, before DESC NULLS LAST, id`,
      [agent, search.patterns, search.atLeast, limit],
    );
  }
}
