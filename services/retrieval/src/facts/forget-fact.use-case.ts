import { Injectable } from '@nestjs/common';
import {
  Events,
  timestampFromDate,
  type ForgetRequest,
  type ForgetResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { EventPublisher, RpcError } from '@engram/messaging';
import { lockFactWriters, TenantTransactions } from '@engram/store';
import { FactRepository } from './fact.repository';

type ForgetResponseInit = MessageInitShape<typeof ForgetResponseSchema>;

/**
 * memory_forget: closes a fact's validity (valid_to = now) with the caller's reason;
 * nothing is deleted, so the fact stays in the history (and drill-downs) but is no
 * longer served. Forgetting a closed fact changes nothing and answers when it closed.
 * Another tenant's fact does not exist for this tenant (NOT_FOUND, like an unknown id).
 * The request passed its rules (libs/contracts forgetRules) before it got here.
 */
@Injectable()
export class ForgetFactUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly facts: FactRepository,
    private readonly events: EventPublisher,
  ) {}

  async forget(tenantId: string, request: ForgetRequest): Promise<ForgetResponseInit> {
    const factId = request.factId;
    const reason = request.reason.trim();

    const fact = await this.transactions.run(tenantId, async (manager) => {
      const found = await this.facts.findById(manager, factId);
      if (!found) throw RpcError.notFound(`fact ${factId} not found`, { factId });
      // Serialised with the agent's other fact writers: a save deduplicating onto this fact
      // either finished before, or sees it closed and stores a fact of its own.
      await lockFactWriters(manager, tenantId, found.agent);
      return this.facts.close(manager, factId, reason === '' ? null : reason);
    });
    if (!fact?.validTo) throw new Error(`fact ${factId} has no valid_to after closing it`);
    if (fact.supersededBy === null) {
      // Announced again when forgotten again: the same id, so JetStream drops the repeat.
      await this.events.publish(
        Events.factUpserted,
        tenantId,
        {
          tenantId,
          agent: fact.agent,
          factId,
          operation: 'forgotten',
          category: fact.category,
          conversationId: fact.conversationId ?? '',
        },
        { msgId: `fact:${tenantId}:${factId}:forgotten` },
      );
    }
    return { factId, validTo: timestampFromDate(fact.validTo) };
  }
}
