import { Controller } from '@nestjs/common';
import { Consumers, tenantOfSubject, timestampDate, type AccessRecorded } from '@engram/contracts';
import { ConsumeEventBatches, type Delivery } from '@engram/messaging';
import { RecordAccessUseCase } from './record-access.use-case';

/** retrieval-access (mem.access.recorded): access statistics of what searches returned. */
@Controller()
export class RetrievalAccessConsumer {
  constructor(private readonly recordAccess: RecordAccessUseCase) {}

  @ConsumeEventBatches(Consumers.retrievalAccess)
  handle(deliveries: Delivery<AccessRecorded>[]): Promise<void> {
    return this.recordAccess.record(
      deliveries.map((d) => ({
        tenantId: tenantOfSubject(d.subject),
        // Our own events carry an id; an event without one is keyed by its place in the stream.
        eventId: d.message.eventId || `seq:${d.streamSequence}`,
        refs: d.message.refs,
        at: d.message.accessedAt ? timestampDate(d.message.accessedAt) : new Date(),
      })),
    );
  }
}
