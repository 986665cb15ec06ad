import { Injectable } from '@nestjs/common';
import {
  optionalTimestamp,
  timestampFromDate,
  type ListCompactionsRequest,
  type ListCompactionsResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { TenantTransactions } from '@engram/store';
import { CompactionsRepository, type ListedCompaction } from './compactions.repository';
import { readOfConversation } from './conversation-read';

/**
 * mem.rpc.compactions.list: a conversation's session compactions as the compactor recorded
 * them, oldest first. Another tenant's conversation does not exist here (NOT_FOUND, like an
 * unknown id, as for summaries.tree); a conversation never compacted has none.
 */
@Injectable()
export class ListCompactionsUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly compactions: CompactionsRepository,
  ) {}

  async list(
    tenantId: string,
    request: ListCompactionsRequest,
  ): Promise<MessageInitShape<typeof ListCompactionsResponseSchema>> {
    const { conversationId } = request;
    const rows = await readOfConversation(this.transactions, tenantId, conversationId, (manager) =>
      this.compactions.list(manager, conversationId),
    );
    return { compactions: rows.map(compactionMessage) };
  }
}

function compactionMessage(c: ListedCompaction) {
  return {
    id: c.id,
    content: c.content,
    firstMessageId: c.first_message_id ?? '',
    lastMessageId: c.last_message_id,
    messageCount: c.message_count ?? 0,
    compactedTokens: c.compacted_tokens ?? 0,
    tokenEstimate: c.token_estimate ?? 0,
    earliestAt: optionalTimestamp(c.earliest_at),
    latestAt: optionalTimestamp(c.latest_at),
    model: c.model,
    createdAt: timestampFromDate(c.created_at),
  };
}
