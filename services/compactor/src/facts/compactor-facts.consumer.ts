import { Controller } from '@nestjs/common';
import { Consumers, tenantOfSubject, type MessageStored } from '@engram/contracts';
import { ConsumeEventBatches, type Delivery } from '@engram/messaging';
import { ExtractFactsUseCase } from './extract-facts.use-case';

/** compactor-facts (mem.message.stored): a turn with an assistant message is followed by fact extraction (fire-and-forget for the agent). */
@Controller()
export class CompactorFactsConsumer {
  constructor(private readonly extractFacts: ExtractFactsUseCase) {}

  @ConsumeEventBatches(Consumers.compactorFacts)
  async handle(deliveries: Delivery<MessageStored>[]): Promise<void> {
    await Promise.all(deliveries.map((d) => this.handleOne(d)));
  }

  private async handleOne(d: Delivery<MessageStored>): Promise<void> {
    const event = d.message;
    // Memory off for the tenant, or the publisher derives the turn's facts itself (the
    // mem0-compatible API): the transcript is kept, no fact is extracted from it here.
    if (!event.memoryEnabled || event.skipFactExtraction || !event.conversationId) return;
    const assistant = event.messages.filter((m) => m.role === 'assistant').at(-1);
    if (!assistant) return;
    try {
      await this.extractFacts.extract({
        tenantId: tenantOfSubject(d.subject),
        agent: event.agent,
        conversationId: event.conversationId,
        turnMessageId: assistant.id,
        traceContext: d.traceContext,
      });
    } catch (error) {
      // One turn failing holds back only its own event.
      d.retryAfter(error);
    }
  }
}
