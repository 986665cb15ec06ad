import { Injectable } from '@nestjs/common';
import { Subjects, ToolSynthesisWorkSchema } from '@engram/contracts';
import { EventPublisher } from '@engram/messaging';

export interface ToolCallToDescribe {
  readonly tenantId: string;
  readonly messageId: string;
}

/**
 * The tool-synthesis work queue: one subject per message, at most one pending item
 * per subject, and a msg id per message, so however often a message is enqueued
 * (redeliveries, backfills) it is described once.
 */
@Injectable()
export class ToolSynthesisQueue {
  constructor(private readonly events: EventPublisher) {}

  async enqueue(items: readonly ToolCallToDescribe[]): Promise<void> {
    await Promise.all(
      items.map((item) =>
        this.events.publishTo(
          ToolSynthesisWorkSchema,
          Subjects.toolSynthesis(item.tenantId, item.messageId),
          item,
          {
            msgId: `toolsynth:${item.tenantId}:${item.messageId}`,
          },
        ),
      ),
    );
  }
}
