import { Controller } from '@nestjs/common';
import { Consumers, isRowId, parseToolSynthesisSubject, type ToolSynthesisWork } from '@engram/contracts';
import { ConsumeEventBatches, type Delivery } from '@engram/messaging';
import { DescribeToolCallsUseCase, type ToolCallRef } from './describe-tool-calls.use-case';

/** Tool synthesis (durable embedder-toolsynth, on mem.work.toolsynth.{tenant}.{message}): each item at most 3 attempts, then a dead letter. */
@Controller()
export class EmbedderToolsynthConsumer {
  constructor(private readonly describeToolCalls: DescribeToolCallsUseCase) {}

  @ConsumeEventBatches(Consumers.embedderToolsynth)
  async handle(deliveries: Delivery<ToolSynthesisWork>[]): Promise<void> {
    const work: Array<{ delivery: Delivery<ToolSynthesisWork>; ref: ToolCallRef }> = [];
    for (const delivery of deliveries) {
      const ref = parseToolSynthesisSubject(delivery.subject);
      if (ref && isRowId(ref.messageId)) work.push({ delivery, ref });
      else delivery.reject(`${delivery.subject} names no message`);
    }
    if (work.length === 0) return;
    const outcomes = await this.describeToolCalls.describe(
      work.map((w) => w.ref),
      work[0]!.delivery.traceContext,
    );
    outcomes.forEach((outcome, i) => {
      if (outcome.kind === 'failed')
        work[i]!.delivery.retry(outcome.reason, { dependencyDown: outcome.dependencyDown });
    });
  }
}
