import { Injectable } from '@nestjs/common';
import {
  Events,
  MsgIds,
  timestampFromDate,
  type ForgetRequest,
  type ForgetResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { Outbox, RpcError } from '@engram/messaging';
import { findFact, forgetFact, lockFactWriters, TenantTransactions } from '@engram/store';

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
    private readonly outbox: Outbox,
  ) {}

  async forget(tenantId: string, request: ForgetRequest): Promise<ForgetResponseInit> {
    const factId = request.factId;
    const reason = request.reason.trim();

    const fact = await this.transactions.run(tenantId, async (manager) => {
      const found = await findFact(manager, factId);
      if (!found) throw RpcError.notFound(`fact ${factId} not found`, { factId });
      // Serialised with the agent's other fact writers: a save deduplicating onto this fact
      // either finished before, or sees it closed and stores a fact of its own.
      await lockFactWriters(manager, tenantId, found.agent);
      const closed = await forgetFact(manager, factId, reason === '' ? null : reason);
      if (closed?.validTo && closed.supersededBy === null) {
        // Forgotten again: the same msg id, so the outbox adds no second event.
        await this.outbox.announce(
          manager,
          Events.factUpserted,
          tenantId,
          {
            tenantId,
            agent: closed.agent,
            factId,
            operation: 'forgotten',
            category: closed.category,
            conversationId: closed.conversationId ?? '',
          },
          { msgId: MsgIds.factForgotten(tenantId, factId) },
        );
      }
      return closed;
    });
    if (!fact?.validTo) throw new Error(`fact ${factId} has no valid_to after closing it`);
    return { factId, validTo: timestampFromDate(fact.validTo) };
  }
}
