import { Injectable } from '@nestjs/common';
import { DataSource, TenantTransactions, withAdvisoryLock } from '@engram/store';
import type { Context } from '@engram/telemetry';
import { GertyGateway } from '../gateway/gerty.gateway';
import { EmbedItemsUseCase } from '../vectors/embed-items.use-case';
import { ToolCallRepository } from './tool-call.repository';

/**
 * A tool call stored without content gets a one-sentence, past-tense description
 * as its searchable content (Gerty writes it), and then its vector. Safe to run
 * again: a described call is only embedded (if it is not yet). Two work items for
 * the same call (a duplicate replaces an item in flight) run one after the other, so
 * the model is asked once.
 */
@Injectable()
export class DescribeToolCallUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TenantTransactions,
    private readonly toolCalls: ToolCallRepository,
    private readonly gateway: GertyGateway,
    private readonly embedItems: EmbedItemsUseCase,
  ) {}

  execute(tenantId: string, messageId: string, traceContext?: Context): Promise<void> {
    return withAdvisoryLock(this.dataSource, `toolsynth/${tenantId}/${messageId}`, async () => {
      const call = await this.transactions.run(tenantId, (m) => this.toolCalls.find(m, messageId));
      if (!call || !call.toolName) return;
      if (call.content === '') {
        const description = await this.gateway.describeToolCall(call.toolName, call.toolArgs);
        await this.transactions.run(tenantId, (m) => this.toolCalls.writeDescription(m, messageId, description));
      }
      await this.embedItems.execute([
        { key: `toolsynth:${tenantId}:${messageId}`, tenantId, kind: 'message', ids: [messageId], ...(traceContext && { traceContext }) },
      ]);
    });
  }
}
