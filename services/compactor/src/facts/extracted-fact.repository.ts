import { Injectable } from '@nestjs/common';
import type { NearestClosedFact, NearestFact } from '@engram/memory-core';
import { factClosed, factInForce, type EntityManager, type MessageRow } from '@engram/store';

/** A message of the window facts are extracted from (its language: the text-search configuration it was indexed with). */
export type WindowMessage = Pick<MessageRow, 'id' | 'role' | 'author' | 'content' | 'createdAt' | 'language'>;

/**
 * The agent's facts with a vector of model $3 ($1 the agent), for an exact nearest-fact scan:
 * materialised, so the tenant partition's HNSW graph (messages and summaries too) is not
 * used, whose approximate top hits could all be other items and leave no fact at all.
 */
const AGENT_FACT_VECTORS = `SELECT f.id, f.valid_to, e.embedding
  FROM facts f
  JOIN embeddings e ON e.tenant_id = f.tenant_id AND e.item_kind = 'fact' AND e.item_id = f.id AND e.model = $3
 WHERE f.agent = $1`;

/**
 * What the extraction reads (its window, the nearest facts by vector) and the vectors it writes,
 * in the caller's tenant transaction; the facts themselves are written by libs/store's functions.
 */
@Injectable()
export class ExtractedFactRepository {
  async now(m: EntityManager): Promise<Date> {
    const rows: Array<{ now: Date }> = await m.query('SELECT now() AS now');
    return rows[0]!.now;
  }

  /** The last `limit` messages of the turn's conversation up to and including the turn's message, oldest first. */
  async window(m: EntityManager, turnMessageId: string, limit: number): Promise<WindowMessage[]> {
    return m.query(
      `SELECT w.id::text, w.role, w.author, w.content, w.created_at AS "createdAt", w.language::text AS language
         FROM messages t
         CROSS JOIN LATERAL (
           SELECT m.* FROM messages m
            WHERE m.conversation_id = t.conversation_id
              AND (m.created_at, m.stream_seq, m.position, m.id) <= (t.created_at, t.stream_seq, t.position, t.id)
            ORDER BY m.created_at DESC, m.stream_seq DESC, m.position DESC, m.id DESC
            LIMIT $2
         ) w
        WHERE t.id = $1
        ORDER BY w.created_at, w.stream_seq, w.position, w.id`,
      [turnMessageId, limit],
    );
  }

  /** The agent's open fact in force at `at` (not expired by then) whose vector (of this model) is nearest to `vector`, with its cosine similarity. */
  async nearestOpenFact(
    m: EntityManager,
    agent: string,
    vector: readonly number[],
    model: string,
    at: Date,
  ): Promise<NearestFact | null> {
    const rows: Array<{ id: string; similarity: number }> = await m.query(
      `WITH candidates AS MATERIALIZED (${AGENT_FACT_VECTORS} AND ${factInForce('f', '$4')})
       SELECT id::text, 1 - (embedding <=> $2::halfvec) AS similarity FROM candidates ORDER BY embedding <=> $2::halfvec LIMIT 1`,
      [agent, `[${vector.join(',')}]`, model, at.toISOString()],
    );
    return rows[0] ? { id: rows[0].id, similarity: Number(rows[0].similarity) } : null;
  }

  /** The agent's closed fact nearest to `vector` (of this model), with when it was closed. */
  async nearestClosedFact(
    m: EntityManager,
    agent: string,
    vector: readonly number[],
    model: string,
  ): Promise<NearestClosedFact | null> {
    const rows: Array<{ id: string; similarity: number; valid_to: Date }> = await m.query(
      `WITH candidates AS MATERIALIZED (${AGENT_FACT_VECTORS} AND ${factClosed('f')})
       SELECT id::text, 1 - (embedding <=> $2::halfvec) AS similarity, valid_to FROM candidates ORDER BY embedding <=> $2::halfvec LIMIT 1`,
      [agent, `[${vector.join(',')}]`, model],
    );
    return rows[0]
      ? { id: rows[0].id, similarity: Number(rows[0].similarity), validTo: rows[0].valid_to }
      : null;
  }

  /**
   * The fact's vector, written with the fact: the next fact of this extraction, and the next
   * turn's, compare against it at once, and an updated wording never keeps the old vector.
   */
  async writeVector(
    m: EntityManager,
    tenantId: string,
    factId: string,
    vector: readonly number[],
    model: string,
  ): Promise<void> {
    await m.query(
      `INSERT INTO embeddings (item_kind, item_id, tenant_id, model, embedding)
       VALUES ('fact', $1, $2, $3, $4::halfvec)
       ON CONFLICT (tenant_id, item_kind, item_id) DO UPDATE
         SET model = excluded.model, embedding = excluded.embedding, embedded_at = now()`,
      [factId, tenantId, model, `[${vector.join(',')}]`],
    );
  }
}
