import { Controller } from '@nestjs/common';
import { Consumers, tenantOfSubject, type FactUpserted, type SummaryCreated } from '@engram/contracts';
import { ConsumeEventBatches, type Delivery } from '@engram/messaging';
import { EmbedItemsUseCase } from './embed-items.use-case';

/** mem.summary.created and mem.fact.upserted: vectors for summaries and facts. */
@Controller()
export class SummariesAndFactsHandler {
  constructor(private readonly embedItems: EmbedItemsUseCase) {}

  @ConsumeEventBatches(Consumers.embedSummaries)
  summaries(deliveries: Delivery<SummaryCreated>[]): Promise<void> {
    return this.embedItems.execute(
      deliveries.map((d) => ({
        key: `${Consumers.embedSummaries.stream.name}:${d.streamSequence}`,
        tenantId: tenantOfSubject(d.subject),
        kind: 'summary' as const,
        ids: [d.message.summaryId],
        traceContext: d.traceContext,
      })),
    );
  }

  @ConsumeEventBatches(Consumers.embedFacts)
  facts(deliveries: Delivery<FactUpserted>[]): Promise<void> {
    return this.embedItems.execute(
      deliveries
        // A closed fact keeps its vector; created or rewritten ones need one.
        .filter((d) => d.message.operation === 'created' || d.message.operation === 'updated')
        .map((d) => ({
          key: `${Consumers.embedFacts.stream.name}:${d.streamSequence}`,
          tenantId: tenantOfSubject(d.subject),
          kind: 'fact' as const,
          ids: [d.message.factId],
          traceContext: d.traceContext,
        })),
    );
  }
}
