import { Injectable } from '@nestjs/common';
import type { ConversationRow, EntityManager } from '@engram/store';

/** A conversation as mem.rpc.conversations.list answers it. */
export type ListedConversation = Pick<
  ConversationRow,
  | 'id'
  | 'agent'
  | 'sessionKey'
  | 'channel'
  | 'channelId'
  | 'botIdentity'
  | 'title'
  | 'model'
  | 'settings'
  | 'messageCount'
  | 'firstMessageAt'
  | 'lastMessageAt'
  | 'createdAt'
>;

/** Which conversations: an agent's, one by id, or all (nulls restrict nothing), holding every word. */
export interface ConversationFilter {
  readonly agent: string | null;
  readonly conversationId: string | null;
  /** Words each to be found (any case) in the title, agent, session key or channel; empty for all. */
  readonly words: readonly string[];
}

// Each word is a literal ILIKE pattern (its %, _ and \ escaped), all of which must match.
const WHERE = `WHERE ($1::text IS NULL OR c.agent = $1) AND ($2::bigint IS NULL OR c.id = $2)
   AND concat_ws(' ', c.title, c.agent, c.session_key, c.channel) ILIKE ALL ($3::text[])`;

/** `word` as an ILIKE pattern matching it anywhere, literally. */
export const containsPattern = (word: string) => `%${word.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** Reads of the tenant's conversations, in the caller's tenant transaction. */
@Injectable()
export class ConversationsRepository {
  /**
   * A page of conversations by first message, then agent and session key (unique): an order
   * that the conversations' content decides, not their ids, so it survives export and import;
   * or newest last message first, as a dashboard lists them.
   */
  async list(
    manager: EntityManager,
    filter: ConversationFilter,
    page: { limit: number; offset: number; newestFirst: boolean },
  ): Promise<{ conversations: ListedConversation[]; total: number }> {
    const params = [filter.agent, filter.conversationId, filter.words.map(containsPattern)];
    const [{ total }]: Array<{ total: string }> = await manager.query(
      `SELECT count(*) AS total FROM conversations c ${WHERE}`,
      params,
    );
    const conversations: ListedConversation[] = await manager.query(
      `SELECT c.id::text, c.agent, c.session_key AS "sessionKey", c.channel, c.channel_id AS "channelId",
              c.bot_identity AS "botIdentity", c.title, c.model, c.settings, c.message_count AS "messageCount",
              c.first_message_at AS "firstMessageAt", c.last_message_at AS "lastMessageAt", c.created_at AS "createdAt"
         FROM conversations c ${WHERE}
        ORDER BY ${page.newestFirst ? 'c.last_message_at DESC NULLS LAST' : 'c.first_message_at NULLS LAST'},
                 c.agent, c.session_key
        LIMIT $4 OFFSET $5`,
      [...params, page.limit, page.offset],
    );
    return { conversations, total: Number(total) };
  }
}
