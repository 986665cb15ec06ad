import { Controller } from '@nestjs/common';
import { Consumers, type TurnEvent } from '@engram/contracts';
import { ConsumeEventBatches, type Delivery } from '@engram/messaging';
import { IngestTurnsUseCase } from './ingest-turns.use-case';

/** ingest-turns (mem.turn.>): turns into the transcript; a turn that can never be stored is dead-lettered. */
@Controller()
export class IngestTurnsConsumer {
  constructor(private readonly ingestTurns: IngestTurnsUseCase) {}

  @ConsumeEventBatches(Consumers.ingestTurns)
  async handle(deliveries: Delivery<TurnEvent>[]): Promise<void> {
    const outcomes = await this.ingestTurns.ingest(
      deliveries.map((d) => ({
        event: d.message,
        envelope: { subject: d.subject, streamSequence: d.streamSequence, receivedAt: d.receivedAt },
        traceContext: d.traceContext,
        redelivered: d.deliveryCount > 1,
      })),
    );
    outcomes.forEach((outcome, i) => {
      if (outcome.kind === 'invalid')
        deliveries[i]!.reject(outcome.reason, { problems: [...outcome.problems] });
      if (outcome.kind === 'failed')
        deliveries[i]!.retry(outcome.reason, { dependencyDown: outcome.dependencyDown });
    });
  }
}
