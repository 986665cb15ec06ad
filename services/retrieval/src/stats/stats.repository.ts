import { Injectable } from '@nestjs/common';
import { FACT_CATEGORIES } from '@engram/memory-core';
import { factInForce, type EntityManager } from '@engram/store';

/** Conversations listed in unsummarisedByConversation: the ones with most messages left. */
export const MAX_UNSUMMARISED_CONVERSATIONS = 100;

export interface StoreStats {
  readonly messages: bigint;
  readonly messagesEmbedded: bigint;
  /** Conversation id → messages not yet in a leaf summary (top MAX_UNSUMMARISED_CONVERSATIONS). */
  readonly unsummarisedByConversation: Record<string, bigint>;
  readonly conversationsCompacted: bigint;
  /** Levels of the tallest summary tree: 0 none, 1 leaves, 2 branches, 3 a root. */
  readonly summaryTreeLevels: number;
  /** Facts in force by category, every category (zero included). */
  readonly factsByCategory: Record<string, bigint>;
}

/**
 * Counts of one tenant's memory (optionally one agent's), each one indexed statement,
 * in the caller's tenant transaction (row-level security confines every count).
 */
@Injectable()
export class StatsRepository {
  async read(manager: EntityManager, agent: string | null): Promise<StoreStats> {
    const params = agent === null ? [] : [agent];
    const byAgent = (alias: string) => (agent === null ? 'TRUE' : `${alias}.agent = $1`);

    // Messages with a vector (of any model) in the embeddings table.
    const [counts]: Array<{ messages: string; embedded: string }> =
      agent === null
        ? await manager.query(
            `SELECT (SELECT count(*) FROM messages) AS messages,
                    (SELECT count(*) FROM embeddings WHERE item_kind = 'message') AS embedded`,
          )
        : await manager.query(
            `SELECT count(*) AS messages, count(e.item_id) AS embedded
               FROM messages m LEFT JOIN embeddings e ON e.item_kind = 'message' AND e.item_id = m.id
              WHERE m.agent = $1`,
            params,
          );

    // Not under a leaf yet: the compactor stamps summarised_at as it links a message to its leaf.
    const unsummarised: Array<{ conversation_id: string; n: string }> = await manager.query(
      `SELECT m.conversation_id, count(*) AS n
         FROM messages m
        WHERE ${byAgent('m')} AND m.summarised_at IS NULL
        GROUP BY m.conversation_id
        ORDER BY n DESC, m.conversation_id
        LIMIT ${MAX_UNSUMMARISED_CONVERSATIONS}`,
      params,
    );

    const [summaries]: Array<{ compacted: string; levels: number }> = await manager.query(
      `SELECT count(DISTINCT s.conversation_id) AS compacted, coalesce(max(s.depth) + 1, 0)::int AS levels
         FROM summaries s WHERE ${byAgent('s')}`,
      params,
    );

    // Facts in force, as search serves them (closed and expired ones are kept, only not served).
    const facts: Array<{ category: string; n: string }> = await manager.query(
      `SELECT f.category, count(*) AS n FROM facts f WHERE ${factInForce('f')} AND ${byAgent('f')} GROUP BY f.category`,
      params,
    );

    const factsByCategory: Record<string, bigint> = Object.fromEntries(FACT_CATEGORIES.map((c) => [c, 0n]));
    for (const row of facts) factsByCategory[row.category] = BigInt(row.n);
    return {
      messages: BigInt(counts!.messages),
      messagesEmbedded: BigInt(counts!.embedded),
      unsummarisedByConversation: Object.fromEntries(
        unsummarised.map((r) => [String(r.conversation_id), BigInt(r.n)]),
      ),
      conversationsCompacted: BigInt(summaries!.compacted),
      summaryTreeLevels: summaries!.levels,
      factsByCategory,
    };
  }
}
