import { Injectable } from '@nestjs/common';
import { MsgIds, WorkItems } from '@engram/contracts';
import { Outbox, workEntry } from '@engram/messaging';
import { TenantTransactions } from '@engram/store';

export interface ToolCallToDescribe {
  readonly tenantId: string;
  readonly messageId: string;
}

/**
 * The tool synthesis work queue: one subject per message, at most one pending item
 * per subject, and a msg id per message, so however often a message is enqueued
 * (redeliveries, backfills) it is described once. Items go out through the outbox,
 * like every event.
 */
@Injectable()
export class ToolSynthesisQueue {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly outbox: Outbox,
  ) {}

  async enqueue(items: readonly ToolCallToDescribe[]): Promise<void> {
    const byTenant = new Map<string, ToolCallToDescribe[]>();
    for (const item of items) byTenant.set(item.tenantId, [...(byTenant.get(item.tenantId) ?? []), item]);
    for (const [tenantId, tenantItems] of byTenant) {
      await this.transactions.run(tenantId, (m) =>
        this.outbox.add(
          m,
          tenantId,
          tenantItems.map((item) =>
            workEntry(WorkItems.toolSynthesis, tenantId, item.messageId, item, {
              msgId: MsgIds.toolSynthesis(tenantId, item.messageId),
            }),
          ),
        ),
      );
    }
  }
}
