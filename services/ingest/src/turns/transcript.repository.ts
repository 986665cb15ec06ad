import { Injectable } from '@nestjs/common';
import type { NormalizedMessage, NormalizedTurn } from '@engram/memory-core';
import type { EntityManager } from '@engram/store';

/** A message row as written: the natural key and the id Postgres gave it. */
export interface StoredMessageRow {
  readonly id: string;
  readonly conversationId: string;
  readonly turnId: string;
  readonly position: number;
}

const conversationKey = (agent: string, sessionKey: string) => `${agent}\u0000${sessionKey}`;

/**
 * The transcript's writes, as few multi-row statements per batch. Every statement is
 * idempotent on natural keys, so a redelivered batch changes nothing. All run in the
 * caller's transaction, acting for one tenant (row-level security).
 */
@Injectable()
export class TranscriptRepository {
  /** Creates the tenant on its first turn; returns whether derived memory is on. */
  async ensureTenant(manager: EntityManager, tenantId: string): Promise<boolean> {
    const rows: Array<{ memory_enabled: boolean }> = await manager.query(
      `WITH created AS (
         INSERT INTO tenants (tenant_id) VALUES ($1) ON CONFLICT (tenant_id) DO NOTHING RETURNING memory_enabled
       )
       SELECT memory_enabled FROM created UNION ALL SELECT memory_enabled FROM tenants WHERE tenant_id = $1`,
      [tenantId],
    );
    return rows[0]?.memory_enabled ?? true;
  }

  /**
   * Creates or refreshes each turn's conversation (keyed by agent and session key);
   * returns conversation ids by agent + session key. Sorted, so concurrent batches
   * lock conversations in the same order.
   */
  async upsertConversations(
    manager: EntityManager,
    tenantId: string,
    turns: readonly NormalizedTurn[],
  ): Promise<Map<string, string>> {
    const latest = new Map<string, NormalizedTurn>();
    for (const turn of turns) latest.set(conversationKey(turn.agent, turn.sessionKey), turn);
    const keys = [...latest.keys()].sort();
    const rows = keys.map((key) => latest.get(key)!);
    const result: Array<{ id: string; agent: string; session_key: string }> = await manager.query(
      `INSERT INTO conversations AS c (tenant_id, agent, session_key, channel, channel_id, bot_identity, title, model, settings)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::jsonb[])
       ON CONFLICT (tenant_id, agent, session_key) DO UPDATE SET
         channel = coalesce(excluded.channel, c.channel),
         channel_id = coalesce(excluded.channel_id, c.channel_id),
         bot_identity = coalesce(excluded.bot_identity, c.bot_identity),
         title = coalesce(excluded.title, c.title),
         model = coalesce(excluded.model, c.model),
         settings = c.settings || excluded.settings,
         updated_at = now()
       RETURNING id, agent, session_key`,
      [
        tenantId,
        rows.map((t) => t.agent),
        rows.map((t) => t.sessionKey),
        rows.map((t) => t.channel),
        rows.map((t) => t.channelId),
        rows.map((t) => t.botIdentity),
        rows.map((t) => t.title),
        rows.map((t) => t.model),
        rows.map((t) => JSON.stringify(t.settings)),
      ],
    );
    return new Map(result.map((r) => [conversationKey(r.agent, r.session_key), r.id]));
  }

  conversationIdOf(conversations: Map<string, string>, turn: NormalizedTurn): string {
    const id = conversations.get(conversationKey(turn.agent, turn.sessionKey));
    if (!id) throw new Error(`no conversation for ${turn.agent}/${turn.sessionKey}`);
    return id;
  }

  /**
   * Inserts every message of the turns; returns only the rows that are new (a
   * message already stored by an earlier delivery is skipped by its natural key).
   */
  async insertMessages(
    manager: EntityManager,
    tenantId: string,
    rows: ReadonlyArray<{ conversationId: string; turn: NormalizedTurn; message: NormalizedMessage }>,
  ): Promise<StoredMessageRow[]> {
    if (rows.length === 0) return [];
    const sorted = [...rows].sort(
      (a, b) =>
        Number(BigInt(a.conversationId) - BigInt(b.conversationId)) ||
        (a.turn.turnId < b.turn.turnId ? -1 : a.turn.turnId > b.turn.turnId ? 1 : 0) ||
        a.message.position - b.message.position,
    );
    const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
    const inserted: Array<{ id: string; conversation_id: string; turn_id: string; position: number }> =
      await manager.query(
        `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, author, content,
                               raw_content, tool_name, tool_call_id, tool_args, tool_result, metadata, token_estimate, created_at)
         SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::int[], $6::bigint[], $7::text[], $8::text[],
                                  $9::text[], $10::text[], $11::text[], $12::text[], $13::jsonb[], $14::jsonb[], $15::jsonb[],
                                  $16::int[], $17::timestamptz[])
         ON CONFLICT (conversation_id, turn_id, position) DO NOTHING
         RETURNING id, conversation_id, turn_id, position`,
        [
          tenantId,
          sorted.map((r) => r.conversationId),
          sorted.map((r) => r.turn.agent),
          sorted.map((r) => r.turn.turnId),
          sorted.map((r) => r.message.position),
          sorted.map((r) => r.turn.streamSequence),
          sorted.map((r) => r.message.role),
          sorted.map((r) => r.message.author),
          sorted.map((r) => r.message.content),
          sorted.map((r) => r.message.rawContent),
          sorted.map((r) => r.message.toolName),
          sorted.map((r) => r.message.toolCallId),
          sorted.map((r) => json(r.message.toolArgs)),
          sorted.map((r) => json(r.message.toolResult)),
          sorted.map((r) => JSON.stringify(r.message.metadata)),
          sorted.map((r) => r.message.tokenEstimate),
          sorted.map((r) => r.message.createdAt.toISOString()),
        ],
      );
    return inserted.map(toRow);
  }

  /** Ids of messages an earlier delivery already stored. */
  async findTurnMessages(
    manager: EntityManager,
    turns: ReadonlyArray<{ conversationId: string; turnId: string }>,
  ): Promise<StoredMessageRow[]> {
    if (turns.length === 0) return [];
    const rows: Array<{ id: string; conversation_id: string; turn_id: string; position: number }> = await manager.query(
      `SELECT m.id, m.conversation_id, m.turn_id, m.position
         FROM unnest($1::bigint[], $2::text[]) AS t(conversation_id, turn_id)
         JOIN messages m ON m.conversation_id = t.conversation_id AND m.turn_id = t.turn_id`,
      [turns.map((t) => t.conversationId), turns.map((t) => t.turnId)],
    );
    return rows.map(toRow);
  }

  /** Counts only what this delivery inserted, so a redelivery never counts twice. */
  async addToConversations(
    manager: EntityManager,
    totals: ReadonlyArray<{ conversationId: string; messages: number; tokens: number; firstAt: Date; lastAt: Date }>,
  ): Promise<void> {
    if (totals.length === 0) return;
    const sorted = [...totals].sort((a, b) => Number(BigInt(a.conversationId) - BigInt(b.conversationId)));
    await manager.query(
      `UPDATE conversations c SET
         message_count = c.message_count + v.messages,
         token_estimate = c.token_estimate + v.tokens,
         first_message_at = least(c.first_message_at, v.first_at),
         last_message_at = greatest(c.last_message_at, v.last_at),
         updated_at = now()
       FROM unnest($1::bigint[], $2::int[], $3::bigint[], $4::timestamptz[], $5::timestamptz[])
         AS v(id, messages, tokens, first_at, last_at)
       WHERE c.id = v.id`,
      [
        sorted.map((t) => t.conversationId),
        sorted.map((t) => t.messages),
        sorted.map((t) => t.tokens),
        sorted.map((t) => t.firstAt.toISOString()),
        sorted.map((t) => t.lastAt.toISOString()),
      ],
    );
  }
}

function toRow(r: { id: string; conversation_id: string; turn_id: string; position: number }): StoredMessageRow {
  return { id: String(r.id), conversationId: String(r.conversation_id), turnId: r.turn_id, position: Number(r.position) };
}
