import { Injectable } from '@nestjs/common';
import type {
  FactCategory,
  FactLifetime,
  MessageRole,
  NearestClosedFact,
  NearestFact,
} from '@engram/memory-core';
import { insertFact, type EntityManager } from '@engram/store';

/** A message of the window facts are extracted from. */
export interface WindowMessage {
  readonly id: string;
  readonly role: MessageRole;
  readonly author: string | null;
  readonly content: string;
  readonly createdAt: Date;
  /** The text-search configuration it was indexed with: its conversation's language. */
  readonly language: string;
}

/** An extracted fact as it is written (new or over an older one). */
export interface ExtractedFactRow {
  readonly agent: string;
  readonly content: string;
  readonly category: FactCategory;
  readonly lifetime: FactLifetime;
  readonly importance: number;
  readonly conversationId: string;
  readonly sourceMessageIds: readonly string[];
  readonly expiresAt: Date | null;
}

/**
 * The agent's facts with a vector of model $3 ($1 the agent), for an exact nearest-fact scan:
 * materialised, so the tenant partition's HNSW graph (messages and summaries too) is not
 * used, whose approximate top hits could all be other items and leave no fact at all.
 */
const AGENT_FACT_VECTORS = `SELECT f.id, f.valid_to, e.embedding
  FROM facts f
  JOIN embeddings e ON e.tenant_id = f.tenant_id AND e.item_kind = 'fact' AND e.item_id = f.id AND e.model = $3
 WHERE f.agent = $1`;

/** Reads and writes of extracted facts and their vectors, in the caller's tenant transaction. */
@Injectable()
export class ExtractedFactRepository {
  async now(m: EntityManager): Promise<Date> {
    const rows: Array<{ now: Date }> = await m.query('SELECT now() AS now');
    return rows[0]!.now;
  }

  /** The last `limit` messages of the turn's conversation up to and including the turn's message, oldest first. */
  async window(m: EntityManager, turnMessageId: string, limit: number): Promise<WindowMessage[]> {
    const rows: Array<{
      id: string;
      role: MessageRole;
      author: string | null;
      content: string;
      created_at: Date;
      language: string;
    }> = await m.query(
      `SELECT w.id::text, w.role, w.author, w.content, w.created_at, w.language::text AS language
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
    return rows.map((r) => ({
      id: r.id,
      role: r.role,
      author: r.author,
      content: r.content,
      createdAt: r.created_at,
      language: r.language,
    }));
  }

  async findByOriginKey(
    m: EntityManager,
    originKey: string,
  ): Promise<{ id: string; category: FactCategory } | null> {
    const rows: Array<{ id: string; category: FactCategory }> = await m.query(
      'SELECT id::text, category FROM facts WHERE origin_key = $1',
      [originKey],
    );
    return rows[0] ?? null;
  }

  async findCategory(m: EntityManager, factId: string): Promise<FactCategory> {
    const rows: Array<{ category: FactCategory }> = await m.query(
      'SELECT category FROM facts WHERE id = $1',
      [factId],
    );
    return rows[0]!.category;
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
      `WITH candidates AS MATERIALIZED (${AGENT_FACT_VECTORS} AND f.valid_to IS NULL AND (f.expires_at IS NULL OR f.expires_at > $4))
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
      `WITH candidates AS MATERIALIZED (${AGENT_FACT_VECTORS} AND f.valid_to IS NOT NULL)
       SELECT id::text, 1 - (embedding <=> $2::halfvec) AS similarity, valid_to FROM candidates ORDER BY embedding <=> $2::halfvec LIMIT 1`,
      [agent, `[${vector.join(',')}]`, model],
    );
    return rows[0]
      ? { id: rows[0].id, similarity: Number(rows[0].similarity), validTo: rows[0].valid_to }
      : null;
  }

  insert(
    m: EntityManager,
    tenantId: string,
    originKey: string,
    fact: ExtractedFactRow,
    validFrom: Date,
  ): Promise<string> {
    return insertFact(m, tenantId, { ...fact, origin: 'extracted', originKey, validFrom });
  }

  /**
   * The same fact said again: its wording, category and importance become the latest,
   * its sources gain the new ones, it lives on; created_at and valid_from stay.
   */
  async update(m: EntityManager, factId: string, fact: ExtractedFactRow): Promise<void> {
    await m.query(
      `UPDATE facts
          SET content = $2, category = $3, importance = $4,
              source_message_ids = ARRAY(SELECT DISTINCT unnest(source_message_ids || $5::bigint[]) ORDER BY 1),
              expires_at = CASE WHEN expires_at IS NULL OR $6::timestamptz IS NULL THEN expires_at ELSE greatest(expires_at, $6::timestamptz) END,
              updated_at = now()
        WHERE id = $1`,
      [
        factId,
        fact.content,
        fact.category,
        fact.importance,
        fact.sourceMessageIds,
        fact.expiresAt?.toISOString() ?? null,
      ],
    );
  }

  /**
   * Closes the older fact's validity when the correction was stated (never before the older
   * one began) and links it to the fact that replaced it; the row stays.
   */
  async supersede(m: EntityManager, olderId: string, newerId: string, statedAt: Date): Promise<void> {
    await m.query(
      `UPDATE facts SET valid_to = greatest(valid_from, $3::timestamptz), superseded_by = $2, updated_at = now() WHERE id = $1 AND valid_to IS NULL`,
      [olderId, newerId, statedAt.toISOString()],
    );
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
