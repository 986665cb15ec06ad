import { Injectable } from '@nestjs/common';
import {
  timestampFromDate,
  type ListCompactionsRequest,
  type ListCompactionsResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import { TenantTransactions } from '@engram/store';
import { CompactionsRepository, type CompactionRow } from './compactions.repository';
import { SummaryTreeRepository } from './summary-tree.repository';

const when = (date: Date | null) => (date === null ? undefined : timestampFromDate(date));

/**
 * mem.rpc.compactions.list: a conversation's session compactions as the compactor recorded
 * them, oldest first. Another tenant's conversation does not exist here (NOT_FOUND, like an
 * unknown id, as for summaries.tree); a conversation never compacted has none.
 */
@Injectable()
export class ListCompactionsUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly summaries: SummaryTreeRepository,
    private readonly compactions: CompactionsRepository,
  ) {}

  async list(
    tenantId: string,
    request: ListCompactionsRequest,
  ): Promise<MessageInitShape<typeof ListCompactionsResponseSchema>> {
    const { conversationId } = request;
    const rows = await this.transactions.run(tenantId, async (manager) =>
      (await this.summaries.conversationExists(manager, conversationId))
        ? this.compactions.list(manager, conversationId)
        : null,
    );
    if (rows === null)
      throw RpcError.notFound(`conversation ${conversationId} not found`, { conversationId });
    return { compactions: rows.map(compactionMessage) };
  }
}

function compactionMessage(c: CompactionRow) {
  return {
    id: c.id,
    content: c.content,
    firstMessageId: c.first_message_id ?? '',
    lastMessageId: c.last_message_id,
    messageCount: c.message_count ?? 0,
    compactedTokens: c.compacted_tokens ?? 0,
    tokenEstimate: c.token_estimate ?? 0,
    earliestAt: when(c.earliest_at),
    latestAt: when(c.latest_at),
    model: c.model,
    createdAt: timestampFromDate(c.created_at),
  };
}
