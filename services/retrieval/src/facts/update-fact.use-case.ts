import { isDeepStrictEqual } from 'node:util';
import type { JsonObject } from '@bufbuild/protobuf';
import { Injectable } from '@nestjs/common';
import {
  Events,
  MsgIds,
  type FactSchema,
  type MessageInitShape,
  type UpdateFactRequest,
} from '@engram/contracts';
import { expiryOf, type FactCategory } from '@engram/memory-core';
import { eventEntry, Outbox, RpcError } from '@engram/messaging';
import {
  ensureTenant,
  insertFact,
  lockFactWriters,
  supersedeFact,
  TenantTransactions,
  type EntityManager,
} from '@engram/store';
import { factMessage } from './fact-history';
import { FactRecordsRepository, type FactRecord } from './fact-records.repository';
import { FactRepository } from './fact.repository';

type FactInit = MessageInitShape<typeof FactSchema>;

/** What the new version says: the request's text, and its category, importance and metadata or the old one's. */
interface Wanted {
  readonly content: string;
  readonly category: FactCategory;
  readonly importance: number;
  readonly metadata: JsonObject;
}

/** The natural key of the version that updates `factId`: a fact is superseded at most once. */
export const updatedFactKey = (factId: string) => `updated:${factId}`;

const says = (fact: FactRecord, wanted: Wanted) =>
  fact.content === wanted.content &&
  fact.category === wanted.category &&
  fact.importance === wanted.importance &&
  isDeepStrictEqual(fact.metadata, wanted.metadata);

/**
 * mem.rpc.facts.update: a fact's new version. The new fact (origin `updated`, the old one's
 * agent, lifetime, conversation and sources) and the old one closed in its favour (valid_to,
 * superseded_by, the reason) are written in one tenant transaction under the agent's
 * fact-writers lock, with `created` and `superseded` on mem.fact.upserted in its outbox — as a
 * correction supersedes a fact in the compactor. Nothing to change answers the fact as it is;
 * a retry of an applied update finds the version it wrote (its key names the old fact).
 */
@Injectable()
export class UpdateFactUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly records: FactRecordsRepository,
    private readonly facts: FactRepository,
    private readonly outbox: Outbox,
  ) {}

  async update(tenantId: string, request: UpdateFactRequest): Promise<FactInit> {
    const updated = await this.transactions.run(tenantId, async (manager) => {
      const seen = await this.records.get(manager, request.factId);
      if (!seen) throw RpcError.notFound(`fact ${request.factId} not found`, { factId: request.factId });
      await lockFactWriters(manager, tenantId, seen.agent);
      // Read again under the lock: another writer may have closed it meanwhile.
      const fact = (await this.records.get(manager, request.factId))!;
      const wanted: Wanted = {
        content: request.content.trim(),
        category: (request.category?.trim().toLowerCase() || fact.category) as FactCategory,
        importance: request.importance ?? fact.importance,
        metadata: request.metadata ?? fact.metadata,
      };
      if (fact.validTo === null) {
        if (says(fact, wanted)) return fact;
        return this.supersede(manager, tenantId, fact, wanted, request.reason.trim() || null);
      }
      const next = fact.supersededBy === null ? null : await this.records.get(manager, fact.supersededBy);
      if (next && next.originKey === updatedFactKey(fact.id) && says(next, wanted)) return next;
      throw RpcError.failedPrecondition(
        `fact ${fact.id} is closed (${next ? `superseded by fact ${next.id}` : 'forgotten'}): only a fact in force can be updated; mem.rpc.facts.get names its current version`,
        { factId: fact.id, ...(next && { supersededBy: next.id }) },
      );
    });
    return factMessage(updated);
  }

  private async supersede(
    manager: EntityManager,
    tenantId: string,
    old: FactRecord,
    wanted: Wanted,
    reason: string | null,
  ): Promise<FactRecord> {
    const { memoryEnabled } = await ensureTenant(manager, tenantId);
    if (!memoryEnabled)
      throw RpcError.failedPrecondition(`memory is switched off for tenant ${tenantId}: facts are not kept`, {
        tenantId,
        setting: 'memoryEnabled',
      });
    const now = await this.facts.now(manager);
    const newId = await insertFact(manager, tenantId, {
      agent: old.agent,
      origin: 'updated',
      ...wanted,
      lifetime: old.lifetime,
      originKey: updatedFactKey(old.id),
      conversationId: old.conversationId,
      sourceMessageIds: old.sourceMessageIds,
      validFrom: now,
      expiresAt: expiryOf(old.lifetime, now),
      saveKey: old.saveKey,
    });
    if (!(await supersedeFact(manager, old.id, newId, { reason })))
      throw new Error(`fact ${old.id} was closed under its writers' lock`);
    const conversationId = old.conversationId ?? '';
    await this.outbox.add(manager, tenantId, [
      eventEntry(
        Events.factUpserted,
        tenantId,
        {
          tenantId,
          agent: old.agent,
          factId: newId,
          operation: 'created',
          category: wanted.category,
          conversationId,
        },
        { msgId: MsgIds.factCreated(tenantId, newId) },
      ),
      eventEntry(
        Events.factUpserted,
        tenantId,
        {
          tenantId,
          agent: old.agent,
          factId: old.id,
          operation: 'superseded',
          category: old.category,
          supersededBy: newId,
          conversationId,
        },
        { msgId: MsgIds.factSuperseded(tenantId, old.id) },
      ),
    ]);
    return (await this.records.get(manager, newId))!;
  }
}
