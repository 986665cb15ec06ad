import { Injectable } from '@nestjs/common';
import {
  timestampFromDate,
  type MessageInitShape,
  type SummaryTreeRequest,
  type SummaryTreeResponseSchema,
} from '@engram/contracts';
import { TenantTransactions } from '@engram/store';
import { readOfConversation } from './conversation-read';
import { SummaryTreeRepository, type SummaryNodeRow } from './summary-tree.repository';

/**
 * mem.rpc.summaries.list: every summary of one conversation, roots first, each with its
 * children (or a leaf's messages) in order. Another tenant's conversation does not exist
 * here (NOT_FOUND, like an unknown id); a conversation not yet compacted has no summaries.
 */
@Injectable()
export class ListSummariesUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly summaries: SummaryTreeRepository,
  ) {}

  async list(
    tenantId: string,
    request: SummaryTreeRequest,
  ): Promise<MessageInitShape<typeof SummaryTreeResponseSchema>> {
    const { conversationId } = request;
    const nodes = await readOfConversation(this.transactions, tenantId, conversationId, (manager) =>
      this.summaries.nodes(manager, conversationId),
    );
    return { summaries: nodes.map(summaryNode) };
  }
}

function summaryNode(n: SummaryNodeRow) {
  return {
    id: n.id,
    depth: n.depth,
    content: n.content,
    earliestAt: timestampFromDate(n.earliestAt),
    latestAt: timestampFromDate(n.latestAt),
    messageCount: BigInt(n.messageCount),
    children: n.children,
    messageIds: n.messageIds,
  };
}
