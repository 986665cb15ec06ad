import { Injectable } from '@nestjs/common';
import type { MessageRole } from '@engram/memory-core';
import type { CompactionRow, EntityManager } from '@engram/store';

/** What a cheap look (without the lock) tells about a conversation. */
export interface CompactionState {
  readonly model: string | null;
  readonly uncompactedTokens: number;
  /** The latest step was cut short: the next one follows, due by the trigger or not. */
  readonly continuing: boolean;
}

export interface CompactedConversation {
  readonly id: string;
  readonly agent: string;
  readonly channel: string | null;
  readonly title: string | null;
  readonly model: string | null;
  /** The tenant's switch: off means no fact is derived (the transcript is still compacted). */
  readonly memoryEnabled: boolean;
}

/** An uncompacted message, in the transcript's order. */
export interface UncompactedMessage {
  readonly id: string;
  readonly role: MessageRole;
  readonly author: string | null;
  readonly content: string;
  readonly createdAt: Date;
  readonly tokens: number;
  /** The last assistant message of its turn: the turn's facts were extracted from the window ending here. */
  readonly endsTurn: boolean;
  /** The text-search configuration it was indexed with: its conversation's language. */
  readonly language: string;
}

/** The conversation's latest compaction: what the next one builds on. */
export interface PreviousCompaction {
  readonly id: string;
  readonly content: string;
  readonly earliestAt: Date;
  readonly latestAt: Date;
  /** Messages compacted in all steps so far. */
  readonly messagesSoFar: number;
  /** It was cut short: the next step continues the way down to the keep share. */
  readonly cutShort: boolean;
}

export interface NewCompaction {
  readonly tenantId: string;
  readonly conversationId: string;
  readonly agent: string;
  readonly content: string;
  readonly tokenEstimate: number;
  /** The model that wrote the summary. */
  readonly model: string;
  /** This step's messages, oldest first. */
  readonly messageIds: readonly string[];
  readonly compactedTokens: number;
  /** It stopped at the step's size above the keep share (SessionCompactionStep.cutShort). */
  readonly cutShort: boolean;
  readonly factIds: readonly string[];
  readonly previousId: string | null;
}

/** A compaction as written, with what its event tells. */
export interface StoredCompaction {
  readonly id: string;
  readonly firstMessageId: string | null;
  readonly lastMessageId: string;
  readonly messageCount: number;
  readonly compactedTokens: number;
  readonly tokenEstimate: number;
  readonly earliestAt: Date;
  readonly latestAt: Date;
}

/** Raised when another writer compacted one of the step's messages first: the caller's transaction writes nothing. */
export class MessagesTakenError extends Error {
  override readonly name = 'MessagesTakenError';
}

/** A conversation's compactions and its uncompacted messages, in the caller's tenant transaction. */
@Injectable()
export class SessionCompactionRepository {
  async state(m: EntityManager, conversationId: string): Promise<CompactionState | null> {
    // continuing: the latest compaction's cut_short, null without one.
    const rows: Array<{
      model: string | null;
      tokens: string;
      continuing: CompactionRow['cut_short'] | null;
    }> = await m.query(
      `SELECT c.model,
              (SELECT coalesce(sum(token_estimate), 0) FROM messages WHERE conversation_id = c.id AND compacted_at IS NULL)::text AS tokens,
              (SELECT cut_short FROM compactions WHERE conversation_id = c.id ORDER BY id DESC LIMIT 1) AS continuing
         FROM conversations c WHERE c.id = $1`,
      [conversationId],
    );
    const row = rows[0];
    return row
      ? { model: row.model, uncompactedTokens: Number(row.tokens), continuing: row.continuing ?? false }
      : null;
  }

  async conversation(m: EntityManager, conversationId: string): Promise<CompactedConversation | null> {
    const rows: Array<{
      id: string;
      agent: string;
      channel: string | null;
      title: string | null;
      model: string | null;
      memory_enabled: boolean | null;
    }> = await m.query(
      `SELECT c.id::text, c.agent, c.channel, c.title, c.model, t.memory_enabled
         FROM conversations c LEFT JOIN tenants t ON t.tenant_id = c.tenant_id
        WHERE c.id = $1`,
      [conversationId],
    );
    const r = rows[0];
    return r
      ? {
          id: r.id,
          agent: r.agent,
          channel: r.channel,
          title: r.title,
          model: r.model,
          memoryEnabled: r.memory_enabled ?? true,
        }
      : null;
  }

  /** Every message not compacted yet, oldest first (the transcript's order). */
  async uncompacted(m: EntityManager, conversationId: string): Promise<UncompactedMessage[]> {
    const rows: Array<{
      id: string;
      role: MessageRole;
      author: string | null;
      content: string;
      created_at: Date;
      token_estimate: number;
      ends_turn: boolean;
      language: string;
    }> = await m.query(
      // A turn's later messages are never compacted before its earlier ones, so its last
      // assistant message is among these whenever any of the turn is.
      `SELECT id::text, role, author, content, created_at, token_estimate, language::text AS language,
              role = 'assistant' AND position = max(position) FILTER (WHERE role = 'assistant') OVER (PARTITION BY turn_id) AS ends_turn
         FROM messages
        WHERE conversation_id = $1 AND compacted_at IS NULL
        ORDER BY created_at, stream_seq, position, id`,
      [conversationId],
    );
    return rows.map((r) => ({
      id: r.id,
      role: r.role,
      author: r.author,
      content: r.content,
      createdAt: r.created_at,
      tokens: r.token_estimate,
      endsTurn: r.ends_turn,
      language: r.language,
    }));
  }

  /** The contract the context builder reads too: the latest compaction is the one with the highest id. */
  async latest(m: EntityManager, conversationId: string): Promise<PreviousCompaction | null> {
    // The span is set: `insert` below always writes it (the columns allow null).
    const rows: Array<
      Pick<CompactionRow, 'id' | 'content' | 'earliest_at' | 'latest_at' | 'cut_short'> & {
        readonly earliest_at: Date;
        readonly latest_at: Date;
        readonly so_far: string;
      }
    > = await m.query(
      `SELECT c.id::text, c.content, c.earliest_at, c.latest_at, c.cut_short,
              (SELECT coalesce(sum(message_count), 0) FROM compactions WHERE conversation_id = $1)::text AS so_far
         FROM compactions c WHERE c.conversation_id = $1 ORDER BY c.id DESC LIMIT 1`,
      [conversationId],
    );
    const r = rows[0];
    return r
      ? {
          id: r.id,
          content: r.content,
          earliestAt: r.earliest_at,
          latestAt: r.latest_at,
          messagesSoFar: Number(r.so_far),
          cutShort: r.cut_short,
        }
      : null;
  }

  /**
   * Records the step and marks exactly its messages compacted. The span runs from the
   * previous compaction's start (exact to the microsecond, from the rows). Throws
   * MessagesTakenError when one of them was compacted meanwhile, and the unique
   * (conversation, last message) refuses a second record of the same step.
   */
  async insert(m: EntityManager, c: NewCompaction): Promise<StoredCompaction> {
    // The span is set: the step has at least one message.
    const rows: Array<
      Pick<
        CompactionRow,
        | 'id'
        | 'first_message_id'
        | 'last_message_id'
        | 'message_count'
        | 'compacted_tokens'
        | 'token_estimate'
        | 'earliest_at'
        | 'latest_at'
      > & { readonly earliest_at: Date; readonly latest_at: Date }
    > = await m.query(
      `WITH span AS (
         SELECT min(created_at) AS earliest_at, max(created_at) AS latest_at FROM messages WHERE id = ANY($6::bigint[])
       ), previous AS (
         SELECT earliest_at, latest_at FROM compactions WHERE id = $11::bigint
       )
       INSERT INTO compactions (tenant_id, conversation_id, agent, content, first_message_id, last_message_id, message_count,
                                compacted_tokens, token_estimate, earliest_at, latest_at, model, fact_ids, cut_short)
       SELECT $1::text, $2::bigint, $3::text, $4::text, $7::bigint, $8::bigint, cardinality($6::bigint[]),
              $9::int, $5::int, least(span.earliest_at, previous.earliest_at), greatest(span.latest_at, previous.latest_at), $10::text, $12::bigint[],
              $13::boolean
         FROM span LEFT JOIN previous ON true
       RETURNING id::text, first_message_id::text, last_message_id::text, message_count, compacted_tokens, token_estimate,
                 earliest_at, latest_at`,
      [
        c.tenantId,
        c.conversationId,
        c.agent,
        c.content,
        c.tokenEstimate,
        c.messageIds,
        c.messageIds[0],
        c.messageIds.at(-1),
        c.compactedTokens,
        c.model,
        c.previousId,
        c.factIds,
        c.cutShort,
      ],
    );
    const marked: [unknown[], number] = await m.query(
      // Rows locked in id order, as a leaf stamps its own: the two writers never wait on each other in a cycle.
      `UPDATE messages m SET compacted_at = now()
         FROM (SELECT id FROM messages WHERE conversation_id = $1 AND id = ANY($2::bigint[]) AND compacted_at IS NULL
                ORDER BY id FOR UPDATE) mine
        WHERE m.id = mine.id`,
      [c.conversationId, c.messageIds],
    );
    if (marked[1] !== c.messageIds.length)
      throw new MessagesTakenError(
        `${c.messageIds.length - marked[1]} of the step's messages were compacted by another writer`,
      );
    const r = rows[0]!;
    return {
      id: r.id,
      firstMessageId: r.first_message_id,
      lastMessageId: r.last_message_id,
      messageCount: r.message_count ?? 0,
      compactedTokens: r.compacted_tokens ?? 0,
      tokenEstimate: r.token_estimate ?? 0,
      earliestAt: r.earliest_at,
      latestAt: r.latest_at,
    };
  }
}
