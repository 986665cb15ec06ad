import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@engram/store';

export interface ConversationRow {
  readonly id: string;
  readonly agent: string;
  readonly session_key: string;
  readonly channel: string | null;
  readonly channel_id: string | null;
  readonly bot_identity: string | null;
  readonly title: string | null;
  readonly model: string | null;
  readonly settings: Record<string, unknown>;
  readonly message_count: number;
  readonly first_message_at: Date | null;
  readonly last_message_at: Date | null;
  readonly created_at: Date;
}

/** Which conversations: an agent's, one by id, or all (nulls restrict nothing). */
export interface ConversationFilter {
  readonly agent: string | null;
  readonly conversationId: string | null;
}

const WHERE = `WHERE ($1::text IS NULL OR c.agent = $1) AND ($2::bigint IS NULL OR c.id = $2)`;

/** Reads of the tenant's conversations, in the caller's tenant transaction. */
@Injectable()
export class ConversationsRepository {
  /**
   * A page of conversations by first message, then agent and session key (unique): an order
   * that the conversations' content decides, not their ids, so it survives export and import.
   */
  async list(
    manager: EntityManager,
    filter: ConversationFilter,
    page: { limit: number; offset: number },
  ): Promise<{ conversations: ConversationRow[]; total: number }> {
    const params = [filter.agent, filter.conversationId];
    const [{ total }]: Array<{ total: string }> = await manager.query(
      `SELECT count(*) AS total FROM conversations c ${WHERE}`,
      params,
    );
    const conversations: ConversationRow[] = await manager.query(
      `SELECT c.id::text, c.agent, c.session_key, c.channel, c.channel_id, c.bot_identity, c.title, c.model,
              c.settings, c.message_count, c.first_message_at, c.last_message_at, c.created_at
         FROM conversations c ${WHERE}
        ORDER BY c.first_message_at NULLS LAST, c.agent, c.session_key
        LIMIT $3 OFFSET $4`,
      [...params, page.limit, page.offset],
    );
    return { conversations, total: Number(total) };
  }
}
