import { Controller } from '@nestjs/common';
import { Consumers, tenantOfSubject, type FactUpserted } from '@engram/contracts';
import { ConsumeEventBatches, type Delivery } from '@engram/messaging';
import { EmbedItemsUseCase } from './embed-items.use-case';

/** embedder-facts (mem.fact.upserted): vectors for new or rewritten facts. */
@Controller()
export class EmbedderFactsConsumer {
  constructor(private readonly embedItems: EmbedItemsUseCase) {}

  @ConsumeEventBatches(Consumers.embedderFacts)
  handle(deliveries: Delivery<FactUpserted>[]): Promise<void> {
    return this.embedItems.embed(
      deliveries
        // A closed fact keeps its vector; created or rewritten ones need one.
        .filter((d) => d.message.operation === 'created' || d.message.operation === 'updated')
        .map((d) => ({
          key: `${Consumers.embedderFacts.stream.name}:${d.streamSequence}`,
          tenantId: tenantOfSubject(d.subject),
          kind: 'fact' as const,
          ids: [d.message.factId],
          traceContext: d.traceContext,
        })),
    );
  }
}
