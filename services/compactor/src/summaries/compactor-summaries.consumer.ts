import { Controller } from '@nestjs/common';
import { Consumers, type MessageStored } from '@engram/contracts';
import { ConsumeEventBatches, type Delivery } from '@engram/messaging';
import { runPerConversation } from '../conversation-runs';
import { GrowSummaryTreeUseCase } from './grow-summary-tree.use-case';

/** compactor-summaries (mem.message.stored): each conversation that grew may be due for summaries (bounded runs per conversation, in rounds). */
@Controller()
export class CompactorSummariesConsumer {
  constructor(private readonly growTree: GrowSummaryTreeUseCase) {}

  @ConsumeEventBatches(Consumers.compactorSummaries)
  handle(deliveries: Delivery<MessageStored>[]): Promise<void> {
    return runPerConversation(
      deliveries,
      // Derived memory is off for the tenant: the transcript is kept, nothing is summarised.
      (d) => d.message.memoryEnabled && d.message.conversationId !== '',
      (trigger) => this.growTree.grow(trigger),
    );
  }
}
