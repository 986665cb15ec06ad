import { Injectable } from '@nestjs/common';
import {
  optionalTimestamp,
  timestampFromDate,
  type ListConversationsRequest,
  type ListConversationsResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { TenantTransactions } from '@engram/store';
import { ConversationsRepository, type ListedConversation } from './conversations.repository';

export const DEFAULT_CONVERSATIONS_PAGE = 100;

/**
 * mem.rpc.conversations.list: the tenant's conversations (an agent's, one by id, or those whose
 * title, agent, session key or channel hold every word of the query) with what
 * their turns said about them, oldest first, and how many match: what to browse, or export.
 */
@Injectable()
export class ListConversationsUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly conversations: ConversationsRepository,
  ) {}

  async list(
    tenantId: string,
    request: ListConversationsRequest,
  ): Promise<MessageInitShape<typeof ListConversationsResponseSchema>> {
    const { conversations, total } = await this.transactions.run(tenantId, (manager) =>
      this.conversations.list(
        manager,
        {
          agent: request.agent || null,
          conversationId: request.conversationId || null,
          words: request.query.trim().split(/\s+/).filter(Boolean),
        },
        {
          limit: request.limit || DEFAULT_CONVERSATIONS_PAGE,
          offset: request.offset,
          newestFirst: request.newestFirst,
        },
      ),
    );
    return { conversations: conversations.map(conversationMessage), total: BigInt(total) };
  }
}

function conversationMessage(c: ListedConversation) {
  return {
    id: c.id,
    agent: c.agent,
    sessionKey: c.sessionKey,
    channel: c.channel ?? '',
    channelId: c.channelId ?? '',
    botIdentity: c.botIdentity ?? '',
    title: c.title ?? '',
    model: c.model ?? '',
    settings: c.settings as never,
    messageCount: BigInt(c.messageCount),
    firstMessageAt: optionalTimestamp(c.firstMessageAt),
    lastMessageAt: optionalTimestamp(c.lastMessageAt),
    createdAt: timestampFromDate(c.createdAt),
  };
}
