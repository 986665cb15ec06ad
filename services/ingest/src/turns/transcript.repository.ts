import { Injectable } from '@nestjs/common';
import type { NormalizedMessage, NormalizedTurn } from '@engram/memory-core';
import type { EntityManager, MessageRow } from '@engram/store';

/** A message row as written: the natural key and the id Postgres gave it. */
export type StoredMessageRow = Pick<MessageRow, 'id' | 'conversationId' | 'turnId' | 'position'>;

/** Leaves out the rows an earlier delivery stored (one probe of the unique index each). */
const SKIP_STORED = `WHERE NOT EXISTS (SELECT FROM messages m WHERE m.conversation_id = v.conversation_id
                                      AND m.turn_id = v.turn_id AND m.position = v.position)`;

/** Earlier messages read to decide an undecided conversation's language. */
const EARLIER_TEXTS = 50;

const conversationKey = (agent: string, sessionKey: string) => `${agent}\u0000${sessionKey}`;

/** What a batch says about one conversation: the conversation's part of a turn. */
type ConversationAttributes = Pick<
  NormalizedTurn,
  'agent' | 'sessionKey' | 'channel' | 'channelId' | 'botIdentity' | 'title' | 'model' | 'settings'
>;

/**
 * Per conversation, the latest value of each attribute any of the batch's turns
 * gave (a title sent only with the first turn survives a later turn without one);
 * settings merge in turn order.
 */
function attributesByConversation(
  turns: readonly NormalizedTurn[],
  keyOf: (turn: NormalizedTurn) => string,
): Map<string, ConversationAttributes> {
  const merged = new Map<string, ConversationAttributes>();
  for (const turn of turns) {
    const key = keyOf(turn);
    const seen = merged.get(key);
    merged.set(key, {
      agent: turn.agent,
      sessionKey: turn.sessionKey,
      channel: turn.channel ?? seen?.channel ?? null,
      channelId: turn.channelId ?? seen?.channelId ?? null,
      botIdentity: turn.botIdentity ?? seen?.botIdentity ?? null,
      title: turn.title ?? seen?.title ?? null,
      model: turn.model ?? seen?.model ?? null,
      settings: { ...seen?.settings, ...turn.settings },
    });
  }
  return merged;
}

/** What one delivery added to a conversation. */
export interface ConversationTotals {
  readonly messages: number;
  readonly tokens: number;
  readonly firstAt: Date;
  readonly lastAt: Date;
}

/**
 * The transcript's writes, as few multi-row statements per batch. Every statement is
 * idempotent on natural keys, so a redelivered batch changes nothing. All run in the
 * caller's transaction, acting for one tenant (row-level security).
 */
@Injectable()
export class TranscriptRepository {
  /**
   * Finds each turn's conversation (keyed by agent and session key), creating the
   * missing ones from what the batch says about them; returns conversation ids by agent +
   * session key. Locks no existing conversation: concurrent batches of the same
   * conversations do not wait for each other here (see refreshConversations).
   */
  async findOrCreateConversations(
    manager: EntityManager,
    tenantId: string,
    turns: readonly NormalizedTurn[],
  ): Promise<Map<string, string>> {
    const latest = attributesByConversation(turns, (turn) => conversationKey(turn.agent, turn.sessionKey));
    const ids = await this.findConversations(manager, tenantId, [...latest.values()]);
    const missing = [...latest.keys()]
      .filter((key) => !ids.has(key))
      .sort()
      .map((key) => latest.get(key)!);
    if (missing.length === 0) return ids;
    const created: Array<{ id: string; agent: string; session_key: string }> = await manager.query(
      `INSERT INTO conversations AS c (tenant_id, agent, session_key, channel, channel_id, bot_identity, title, model, settings)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::jsonb[])
       ON CONFLICT (tenant_id, agent, session_key) DO NOTHING
       RETURNING id, agent, session_key`,
      [
        tenantId,
        missing.map((t) => t.agent),
        missing.map((t) => t.sessionKey),
        missing.map((t) => t.channel),
        missing.map((t) => t.channelId),
        missing.map((t) => t.botIdentity),
        missing.map((t) => t.title),
        missing.map((t) => t.model),
        missing.map((t) => JSON.stringify(t.settings)),
      ],
    );
    for (const r of created) ids.set(conversationKey(r.agent, r.session_key), String(r.id));
    // Created meanwhile by a concurrent batch (committed after this statement's snapshot): read again.
    const raced = missing.filter((t) => !ids.has(conversationKey(t.agent, t.sessionKey)));
    if (raced.length > 0)
      for (const [key, id] of await this.findConversations(manager, tenantId, raced)) ids.set(key, id);
    return ids;
  }

  private async findConversations(
    manager: EntityManager,
    tenantId: string,
    turns: readonly ConversationAttributes[],
  ): Promise<Map<string, string>> {
    const rows: Array<{ id: string; agent: string; session_key: string }> = await manager.query(
      `SELECT c.id, c.agent, c.session_key
         FROM unnest($2::text[], $3::text[]) AS k(agent, session_key)
         JOIN conversations c ON c.tenant_id = $1 AND c.agent = k.agent AND c.session_key = k.session_key`,
      [tenantId, turns.map((t) => t.agent), turns.map((t) => t.sessionKey)],
    );
    return new Map(rows.map((r) => [conversationKey(r.agent, r.session_key), String(r.id)]));
  }

  conversationIdOf(conversations: Map<string, string>, turn: NormalizedTurn): string {
    const id = conversations.get(conversationKey(turn.agent, turn.sessionKey));
    if (!id) throw new Error(`no conversation for ${turn.agent}/${turn.sessionKey}`);
    return id;
  }

  /** Each conversation's text-search configuration, null while undecided (see textSearchOf). */
  async conversationLanguages(
    manager: EntityManager,
    conversationIds: readonly string[],
  ): Promise<Map<string, string | null>> {
    const rows: Array<{ id: string; language: string | null }> = await manager.query(
      `SELECT c.id, c.language::text AS language FROM conversations c WHERE c.id = ANY($1::bigint[])`,
      [conversationIds],
    );
    return new Map(rows.map((r) => [String(r.id), r.language]));
  }

  /**
   * The first user and assistant messages stored in each undecided conversation, in order (they
   * held too little prose to decide its language: a few rows each).
   */
  async earlierTexts(
    manager: EntityManager,
    conversationIds: readonly string[],
  ): Promise<Map<string, string[]>> {
    const rows: Array<{ id: string; content: string }> = await manager.query(
      `SELECT c.id, m.content
         FROM unnest($1::bigint[]) AS c(id)
         CROSS JOIN LATERAL (SELECT m.content FROM messages m
                              WHERE m.conversation_id = c.id AND m.role IN ('user', 'assistant')
                              ORDER BY m.created_at, m.stream_seq, m.position, m.id LIMIT ${EARLIER_TEXTS}) m`,
      [conversationIds],
    );
    const texts = new Map<string, string[]>();
    for (const r of rows) {
      const id = String(r.id);
      if (!texts.has(id)) texts.set(id, []);
      texts.get(id)!.push(r.content);
    }
    return texts;
  }

  /**
   * Adds the configurations the tenant's messages were stamped with to its `languages` (what a
   * query is stemmed with); writes only when one is new, so a tenant's batches rarely wait here.
   */
  async addTenantLanguages(
    manager: EntityManager,
    tenantId: string,
    languages: readonly string[],
  ): Promise<void> {
    if (languages.length === 0) return;
    await manager.query(
      `UPDATE tenants SET languages = ARRAY(SELECT DISTINCT l FROM unnest(languages || $2::regconfig[]) l ORDER BY l),
                          updated_at = now()
        WHERE tenant_id = $1 AND NOT languages @> $2::regconfig[]`,
      [tenantId, languages],
    );
  }

  /**
   * Inserts every message of the turns; returns only the rows that are new (a
   * message already stored by an earlier delivery is skipped by its natural key).
   * `mayBeStored` (a redelivery) first leaves out the rows already there: ON CONFLICT
   * alone computes each row's generated tsvector before it finds the conflict, which
   * for long messages cost two thirds of a first insert.
   */
  async insertMessages(
    manager: EntityManager,
    tenantId: string,
    rows: ReadonlyArray<{
      conversationId: string;
      turn: NormalizedTurn;
      message: NormalizedMessage;
      language: string;
    }>,
    options: { mayBeStored?: boolean } = {},
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
                               raw_content, tool_name, tool_call_id, tool_args, tool_result, metadata, token_estimate, created_at,
                               language)
         SELECT $1, v.* FROM unnest($2::bigint[], $3::text[], $4::text[], $5::int[], $6::bigint[], $7::text[], $8::text[],
                                  $9::text[], $10::text[], $11::text[], $12::text[], $13::jsonb[], $14::jsonb[], $15::jsonb[],
                                  $16::int[], $17::timestamptz[], $18::regconfig[]) AS v(conversation_id, agent, turn_id, position)
         ${options.mayBeStored ? SKIP_STORED : ''}
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
          sorted.map((r) => r.language),
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
    const rows: Array<{ id: string; conversation_id: string; turn_id: string; position: number }> =
      await manager.query(
        `SELECT m.id, m.conversation_id, m.turn_id, m.position
         FROM unnest($1::bigint[], $2::text[]) AS t(conversation_id, turn_id)
         JOIN messages m ON m.conversation_id = t.conversation_id AND m.turn_id = t.turn_id`,
        [turns.map((t) => t.conversationId), turns.map((t) => t.turnId)],
      );
    return rows.map(toRow);
  }

  /**
   * Refreshes each conversation of the batch with what its turns say (channel, title,
   * model … when given; settings merged) and adds what this delivery inserted to its
   * counters (a redelivery adds nothing); records the language decided for an undecided one
   * (`languages`; a language once decided stays). Meant to run last in the transaction: the
   * rows stay locked only until the commit, and they are locked in id order so that
   * concurrent batches cannot deadlock.
   */
  async refreshConversations(
    manager: EntityManager,
    conversations: Map<string, string>,
    turns: readonly NormalizedTurn[],
    totals: ReadonlyMap<string, ConversationTotals>,
    languages: ReadonlyMap<string, string> = new Map(),
  ): Promise<void> {
    const latest = attributesByConversation(turns, (turn) => this.conversationIdOf(conversations, turn));
    if (latest.size === 0) return;
    const ids = [...latest.keys()].sort((a, b) => Number(BigInt(a) - BigInt(b)));
    await manager.query(
      `SELECT id FROM conversations WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE`,
      [ids],
    );
    const turnOf = (id: string) => latest.get(id)!;
    await manager.query(
      `UPDATE conversations c SET
         channel = coalesce(v.channel, c.channel),
         channel_id = coalesce(v.channel_id, c.channel_id),
         bot_identity = coalesce(v.bot_identity, c.bot_identity),
         title = coalesce(v.title, c.title),
         model = coalesce(v.model, c.model),
         settings = c.settings || v.settings,
         language = coalesce(c.language, v.language),
         message_count = c.message_count + v.messages,
         token_estimate = c.token_estimate + v.tokens,
         first_message_at = least(c.first_message_at, v.first_at),
         last_message_at = greatest(c.last_message_at, v.last_at),
         updated_at = now()
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[],
                   $8::int[], $9::bigint[], $10::timestamptz[], $11::timestamptz[], $12::regconfig[])
         AS v(id, channel, channel_id, bot_identity, title, model, settings, messages, tokens, first_at, last_at, language)
       WHERE c.id = v.id`,
      [
        ids,
        ids.map((id) => turnOf(id).channel),
        ids.map((id) => turnOf(id).channelId),
        ids.map((id) => turnOf(id).botIdentity),
        ids.map((id) => turnOf(id).title),
        ids.map((id) => turnOf(id).model),
        ids.map((id) => JSON.stringify(turnOf(id).settings)),
        ids.map((id) => totals.get(id)?.messages ?? 0),
        ids.map((id) => totals.get(id)?.tokens ?? 0),
        ids.map((id) => totals.get(id)?.firstAt.toISOString() ?? null),
        ids.map((id) => totals.get(id)?.lastAt.toISOString() ?? null),
        ids.map((id) => languages.get(id) ?? null),
      ],
    );
  }
}

function toRow(r: {
  id: string;
  conversation_id: string;
  turn_id: string;
  position: number;
}): StoredMessageRow {
  return {
    id: String(r.id),
    conversationId: String(r.conversation_id),
    turnId: r.turn_id,
    position: Number(r.position),
  };
}
