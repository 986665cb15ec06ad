import { Controller } from '@nestjs/common';
import { Consumers, tenantOfSubject, type MessageStored } from '@engram/contracts';
import { ConsumeEventBatches, errorMessage, isDependencyFailure, type Delivery } from '@engram/messaging';
import { GrowSummaryTreeUseCase } from './grow-summary-tree.use-case';

/** mem.message.stored: each conversation that grew may be due for summaries (one run per conversation per batch). */
@Controller()
export class CompactorSummariesConsumer {
  constructor(private readonly growTree: GrowSummaryTreeUseCase) {}

  @ConsumeEventBatches(Consumers.summarizeMessages)
  async handle(deliveries: Delivery<MessageStored>[]): Promise<void> {
    const byConversation = new Map<string, Delivery<MessageStored>[]>();
    for (const d of deliveries) {
      // Derived memory is off for the tenant: the transcript is kept, nothing is summarised.
      if (!d.message.memoryEnabled || !d.message.conversationId) continue;
      const key = `${tenantOfSubject(d.subject)}/${d.message.conversationId}`;
      byConversation.set(key, [...(byConversation.get(key) ?? []), d]);
    }
    for (const group of byConversation.values()) {
      const first = group[0]!;
      try {
        await this.growTree.execute({
          tenantId: tenantOfSubject(first.subject),
          conversationId: first.message.conversationId,
          traceContext: first.traceContext,
        });
      } catch (error) {
        // One conversation failing holds back only its own events.
        const dependencyDown = isDependencyFailure(error);
        for (const d of group) d.retry(errorMessage(error), { dependencyDown });
      }
    }
  }
}
