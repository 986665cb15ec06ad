import { Controller } from '@nestjs/common';
import { Consumers, parseToolSynthesisSubject, type ToolSynthesisWork } from '@engram/contracts';
import { ConsumeEvents, InvalidEventError, type Delivery } from '@engram/messaging';
import { DescribeToolCallUseCase } from './describe-tool-call.use-case';

/** mem.work.toolsynth.{tenant}.{message}: at most 3 attempts, then a dead letter. */
@Controller()
export class ToolSynthesisHandler {
  constructor(private readonly describeToolCall: DescribeToolCallUseCase) {}

  @ConsumeEvents(Consumers.toolSynthesis)
  handle(delivery: Delivery<ToolSynthesisWork>): Promise<void> {
    const work = parseToolSynthesisSubject(delivery.subject);
    if (!work || !/^\d{1,19}$/.test(work.messageId)) throw new InvalidEventError(`${delivery.subject} names no message`);
    return this.describeToolCall.execute(work.tenantId, work.messageId, delivery.traceContext);
  }
}
