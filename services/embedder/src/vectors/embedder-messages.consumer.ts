import { Controller } from '@nestjs/common';
import { Consumers, tenantOfSubject, timestampDate, type MessageStored } from '@engram/contracts';
import { histogram, SharedMetricNames } from '@engram/platform';
import { ConsumeEventBatches, type Delivery } from '@engram/messaging';
import { ToolSynthesisQueue } from '../tool-synthesis/tool-synthesis.queue';
import { EmbedItemsUseCase } from './embed-items.use-case';

/** embedder-messages (mem.message.stored): vectors for what was said; tool calls without content go to tool synthesis first. */
@Controller()
export class EmbedderMessagesConsumer {
  constructor(
    private readonly embedItems: EmbedItemsUseCase,
    private readonly toolSynthesis: ToolSynthesisQueue,
  ) {}

  @ConsumeEventBatches(Consumers.embedderMessages)
  async handle(deliveries: Delivery<MessageStored>[]): Promise<void> {
    await this.toolSynthesis.enqueue(
      deliveries.flatMap((d) =>
        d.message.messages
          .filter((m) => m.contentEmpty && m.toolName)
          .map((m) => ({ tenantId: tenantOfSubject(d.subject), messageId: m.id })),
      ),
    );
    const embedded = deliveries.map((d) => ({
      key: `${Consumers.embedderMessages.stream.name}:${d.streamSequence}`,
      tenantId: tenantOfSubject(d.subject),
      kind: 'message' as const,
      ids: d.message.messages.filter((m) => !m.contentEmpty).map((m) => m.id),
      traceContext: d.traceContext,
    }));
    await this.embedItems.embed(embedded);
    // Stored → vector, for the health page (heartbeat counters vectors_made, vector_lag_seconds).
    const now = Date.now();
    deliveries.forEach((d, i) => {
      const storedAt = d.message.storedAt ? timestampDate(d.message.storedAt).getTime() : null;
      if (storedAt === null) return;
      for (let n = 0; n < embedded[i]!.ids.length; n++) vectorLag.observe(Math.max(0, now - storedAt) / 1000);
    });
  }
}

const vectorLag = histogram(
  SharedMetricNames.vectorLag,
  "From a message's store to its vector written",
  [],
  [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
);
