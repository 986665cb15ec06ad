import { Injectable } from '@nestjs/common';
import {
  Events,
  MsgIds,
  timestampFromDate,
  type ForgetRequest,
  type ForgetResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { isRowId } from '@engram/memory-core';
import { Outbox, RpcError } from '@engram/messaging';
import { lockFactWriters, TenantTransactions } from '@engram/store';
import { FactRepository } from './fact.repository';

type ForgetResponseInit = MessageInitShape<typeof ForgetResponseSchema>;

/** Longest reason kept with a forgotten fact, in characters (code points). */
export const MAX_FORGET_REASON_CHARS = 1000;

/**
 * memory_forget: closes a fact's validity (valid_to = now) with the caller's reason;
 * nothing is deleted, so the fact stays in the history (and drill-downs) but is no
 * longer served. Forgetting a closed fact changes nothing and answers when it closed.
 * Another tenant's fact does not exist for this tenant (NOT_FOUND, like an unknown id).
 */
@Injectable()
export class ForgetFactUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly facts: FactRepository,
    private readonly outbox: Outbox,
  ) {}

  async forget(tenantId: string, request: ForgetRequest): Promise<ForgetResponseInit> {
    const factId = request.factId;
    if (factId === '') throw RpcError.invalidArgument('factId is required', { field: 'factId' });
    if (!isRowId(factId))
      throw RpcError.invalidArgument(`"${factId}" is not a fact id`, { field: 'factId', factId });
    const reason = request.reason.trim();
    if ([...reason].length > MAX_FORGET_REASON_CHARS) {
      throw RpcError.invalidArgument(`reason is longer than ${MAX_FORGET_REASON_CHARS} characters`, {
        field: 'reason',
      });
    }
    if (reason.includes('\u0000'))
      throw RpcError.invalidArgument('reason may not contain NUL characters', { field: 'reason' });

    const fact = await this.transactions.run(tenantId, async (manager) => {
      const found = await this.facts.findById(manager, factId);
      if (!found) throw RpcError.notFound(`fact ${factId} not found`, { factId });
      // Serialised with the agent's other fact writers: a save deduplicating onto this fact
      // either finished before, or sees it closed and stores a fact of its own.
      await lockFactWriters(manager, tenantId, found.agent);
      const closed = await this.facts.close(manager, factId, reason === '' ? null : reason);
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
