import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@engram/store';

export interface ConversationHeader {
  readonly id: string;
  readonly agent: string;
  readonly channel: string | null;
  readonly title: string | null;
}

/** A message under no leaf yet, in conversation order. */
export interface PendingMessage {
  readonly id: string;
  readonly role: 'user' | 'assistant' | 'system' | 'tool';
  readonly author: string | null;
  readonly content: string;
  readonly createdAt: Date;
  readonly tokens: number;
}

/** A summary under no parent yet. */
export interface OrphanSummary {
  readonly id: string;
  readonly content: string;
  readonly earliestAt: Date;
  readonly latestAt: Date;
  readonly messageCount: number;
}

/** A summary as written: its id and the span the store computed from its sources. */
export interface StoredSummary {
  readonly id: string;
  readonly earliestAt: Date;
  readonly latestAt: Date;
  readonly messageCount: number;
}

export interface NewSummary {
  readonly tenantId: string;
  readonly conversationId: string;
  readonly agent: string;
  readonly depth: number;
  readonly content: string;
  readonly tokenEstimate: number;
  readonly model: string;
  /** Messages (a leaf) or child summaries (a branch or root), in order. */
  readonly sourceIds: readonly string[];
}

/** Raised when another writer already put one of the sources under a summary (the store's one-parent rule). */
export class SourcesTakenError extends Error {
  override readonly name = 'SourcesTakenError';
}

/** A conversation's summary tree: what is not summarised yet, and new nodes with their links. Runs in the caller's tenant transaction. */
@Injectable()
export class SummaryRepository {
  async conversation(m: EntityManager, conversationId: string): Promise<ConversationHeader | null> {
    const rows: Array<{ id: string; agent: string; channel: string | null; title: string | null }> =
      await m.query(`SELECT id::text, agent, channel, title FROM conversations WHERE id = $1`, [
        conversationId,
      ]);
    return rows[0] ?? null;
  }

  /** The oldest messages under no leaf, in the transcript's order. */
  async pendingMessages(m: EntityManager, conversationId: string, limit: number): Promise<PendingMessage[]> {
    const rows: Array<{
      id: string;
      role: PendingMessage['role'];
      author: string | null;
      content: string;
      created_at: Date;
      token_estimate: number;
    }> = await m.query(
      `SELECT m.id::text, m.role, m.author, m.content, m.created_at, m.token_estimate
           FROM messages m
          WHERE m.conversation_id = $1 AND m.summarised_at IS NULL
          ORDER BY m.created_at, m.stream_seq, m.position, m.id
          LIMIT $2`,
      [conversationId, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      role: r.role,
      author: r.author,
      content: r.content,
      createdAt: r.created_at,
      tokens: r.token_estimate,
    }));
  }

  /** Summaries of one depth under no parent, oldest first. */
  async orphans(m: EntityManager, conversationId: string, depth: number): Promise<OrphanSummary[]> {
    const rows: Array<{
      id: string;
      content: string;
      earliest_at: Date;
      latest_at: Date;
      message_count: number;
    }> = await m.query(
      `SELECT s.id::text, s.content, s.earliest_at, s.latest_at, s.message_count
         FROM summaries s
        WHERE s.conversation_id = $1 AND s.depth = $2
          AND NOT EXISTS (SELECT 1 FROM summary_sources ss WHERE ss.source_kind = 'summary' AND ss.source_id = s.id)
        ORDER BY s.earliest_at, s.id`,
      [conversationId, depth],
    );
    return rows.map((r) => ({
      id: r.id,
      content: r.content,
      earliestAt: r.earliest_at,
      latestAt: r.latest_at,
      messageCount: r.message_count,
    }));
  }

  /**
   * Writes a summary and links it to its sources (a leaf's messages are stamped
   * `summarised_at`, locked in id order). Its span is taken from the sources
   * themselves (exact to the microsecond). Throws SourcesTakenError when a source is
   * already under another summary; the caller's transaction then writes nothing.
   */
  async insert(m: EntityManager, summary: NewSummary): Promise<StoredSummary> {
    const leaf = summary.depth === 0;
    const span = leaf
      ? `SELECT min(created_at) AS earliest_at, max(created_at) AS latest_at, count(*)::int AS message_count FROM messages WHERE id = ANY($8::bigint[])`
      : `SELECT min(earliest_at) AS earliest_at, max(latest_at) AS latest_at, sum(message_count)::int AS message_count FROM summaries WHERE id = ANY($8::bigint[])`;
    try {
      const rows: Array<{ id: string; earliest_at: Date; latest_at: Date; message_count: number }> =
        await m.query(
          `WITH span AS (${span}),
              node AS (
                INSERT INTO summaries (tenant_id, conversation_id, agent, depth, content, earliest_at, latest_at, message_count, token_estimate, model)
                SELECT $1::text, $2::bigint, $3::text, $4::smallint, $5::text, span.earliest_at, span.latest_at, span.message_count, $6::int, $7::text FROM span
                RETURNING id, earliest_at, latest_at, message_count
              ),
              links AS (
                INSERT INTO summary_sources (tenant_id, summary_id, source_kind, source_id, ordinal)
                SELECT $1::text, node.id, $9::text, src.id, src.ordinal FROM node, unnest($8::bigint[]) WITH ORDINALITY AS src (id, ordinal)
              )${
                leaf
                  ? `,
              stamped AS (
                UPDATE messages m SET summarised_at = now()
                  FROM (SELECT id FROM messages WHERE id = ANY($8::bigint[]) ORDER BY id FOR UPDATE) mine
                 WHERE m.id = mine.id
              )`
                  : ''
              }
         SELECT id::text, earliest_at, latest_at, message_count FROM node`,
          [
            summary.tenantId,
            summary.conversationId,
            summary.agent,
            summary.depth,
            summary.content,
            summary.tokenEstimate,
            summary.model,
            summary.sourceIds,
            leaf ? 'message' : 'summary',
          ],
        );
      const row = rows[0]!;
      return {
        id: row.id,
        earliestAt: row.earliest_at,
        latestAt: row.latest_at,
        messageCount: row.message_count,
      };
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code === '23505' && constraint === 'summary_sources_one_parent')
        throw new SourcesTakenError(`a source of the new summary is already summarised`);
      throw error;
    }
  }
}
