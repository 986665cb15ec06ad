import { Controller } from '@nestjs/common';
import { Consumers, tenantOfSubject, type MessageStored } from '@engram/contracts';
import { ConsumeEventBatches, type Delivery } from '@engram/messaging';
import { ToolSynthesisQueue } from '../tool-calls/tool-synthesis.queue';
import { EmbedItemsUseCase } from './embed-items.use-case';

/** mem.message.stored: vectors for what was said; tool calls without content go to be described first. */
@Controller()
export class EmbedderMessagesConsumer {
  constructor(
    private readonly embedItems: EmbedItemsUseCase,
    private readonly toolSynthesis: ToolSynthesisQueue,
  ) {}

  @ConsumeEventBatches(Consumers.embedMessages)
  async handle(deliveries: Delivery<MessageStored>[]): Promise<void> {
    await this.toolSynthesis.enqueue(
      deliveries.flatMap((d) =>
        d.message.messages
          .filter((m) => m.contentEmpty && m.toolName)
          .map((m) => ({ tenantId: tenantOfSubject(d.subject), messageId: m.id })),
      ),
    );
    await this.embedItems.execute(
      deliveries.map((d) => ({
        key: `${Consumers.embedMessages.stream.name}:${d.streamSequence}`,
        tenantId: tenantOfSubject(d.subject),
        kind: 'message' as const,
        ids: d.message.messages.filter((m) => !m.contentEmpty).map((m) => m.id),
        traceContext: d.traceContext,
      })),
    );
  }
}
