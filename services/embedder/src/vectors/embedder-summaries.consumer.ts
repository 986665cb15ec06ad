import { Controller } from '@nestjs/common';
import { Consumers, tenantOfSubject, type SummaryCreated } from '@engram/contracts';
import { ConsumeEventBatches, type Delivery } from '@engram/messaging';
import { EmbedItemsUseCase } from './embed-items.use-case';

/** embedder-summaries (mem.summary.created): vectors for new summaries. */
@Controller()
export class EmbedderSummariesConsumer {
  constructor(private readonly embedItems: EmbedItemsUseCase) {}

  @ConsumeEventBatches(Consumers.embedderSummaries)
  handle(deliveries: Delivery<SummaryCreated>[]): Promise<void> {
    return this.embedItems.embed(
      deliveries.map((d) => ({
        key: `${Consumers.embedderSummaries.stream.name}:${d.streamSequence}`,
        tenantId: tenantOfSubject(d.subject),
        kind: 'summary' as const,
        ids: [d.message.summaryId],
        traceContext: d.traceContext,
      })),
    );
  }
}
