import { Inject, Injectable } from '@nestjs/common';
import {
  Events,
  MsgIds,
  type SaveRequest,
  type SaveResponseSchema,
  type MessageInitShape,
} from '@engram/contracts';
import { expiryOf, findDuplicateFact, type FactCategory } from '@engram/memory-core';
import { Outbox, RpcError } from '@engram/messaging';
import {
  ensureTenant,
  findFactByOriginKey,
  insertFact,
  isFactInForce,
  lockFactWriters,
  openFactsSharingWords,
  renewFact,
  TenantTransactions,
  type EntityManager,
  type FactRow,
} from '@engram/store';
import { FactRecordsRepository } from './fact-records.repository';
import { FactRepository } from './fact.repository';
import { FACTS_OPTIONS, type FactsOptions } from './facts.options';
import { factToSave, type FactToSave } from './fact-to-save';
import { keyedFactKey, resavedFactKey, savedFactKey } from './saved-fact-key';

type SaveResponseInit = MessageInitShape<typeof SaveResponseSchema>;

/** What a save came to, and whether a `created` event is due for the fact (again: the outbox keeps one). */
interface SaveOutcome {
  readonly factId: string;
  readonly deduplicated: boolean;
  readonly announce: {
    readonly agent: string;
    readonly category: FactCategory;
    readonly conversationId: string | null;
  } | null;
}

/** The key the next save of this content takes, or the fact that is that save. */
type KeyLookup =
  { readonly kind: 'free'; readonly originKey: string } | { readonly kind: 'saved'; readonly fact: FactRow };

/** Saying the same thing, forgetting it and saying it again this many times is not a use we serve. */
const MAX_RESAVES = 1000;

/**
 * memory_save: stores a fact the agent (or its user) states explicitly. Deduplicated
 * exactly like tagged facts at ingest: when an open fact of the same agent, in force
 * now, already holds more than the overlap threshold of the new fact's distinct words,
 * no row is added; that fact's id is answered (deduplicated) and its lifetime renewed.
 * A save with the caller's key (an import's) is identified by the key alone: the key again
 * answers that fact's version in force, or its last, and changes nothing.
 * Writers of one agent's facts are serialised by the same advisory lock ingest takes.
 * A new fact is announced on mem.fact.upserted through the outbox of the same
 * transaction, so it gets a vector even if this process dies right after the commit.
 */
@Injectable()
export class SaveFactUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly facts: FactRepository,
    private readonly records: FactRecordsRepository,
    private readonly outbox: Outbox,
    @Inject(FACTS_OPTIONS) private readonly options: FactsOptions,
  ) {}

  async save(tenantId: string, request: SaveRequest): Promise<SaveResponseInit> {
    const fact = factToSave(request);
    const outcome = await this.transactions.run(tenantId, async (manager) => {
      const { memoryEnabled } = await ensureTenant(manager, tenantId);
      if (!memoryEnabled) {
        throw RpcError.failedPrecondition(
          `memory is switched off for tenant ${tenantId}: facts are not kept`,
          {
            tenantId,
            setting: 'memoryEnabled',
          },
        );
      }
      const conversationId = await this.checkSources(manager, fact);
      await lockFactWriters(manager, tenantId, fact.agent);
      const outcome = await this.store(manager, tenantId, { ...fact, conversationId });
      if (outcome.announce) {
        const { agent, category, conversationId: where } = outcome.announce;
        // The id ingest uses too: a save retried after a lost answer adds no second event.
        await this.outbox.announce(
          manager,
          Events.factUpserted,
          tenantId,
          {
            tenantId,
            agent,
            factId: outcome.factId,
            operation: 'created',
            category,
            conversationId: where ?? '',
          },
          { msgId: MsgIds.factCreated(tenantId, outcome.factId) },
        );
      }
      return outcome;
    });
    return { factId: outcome.factId, deduplicated: outcome.deduplicated };
  }

  private async store(manager: EntityManager, tenantId: string, fact: FactToSave): Promise<SaveOutcome> {
    const now = await this.facts.now(manager);
    const expiresAt = expiryOf(fact.lifetime, now);

    // A keyed save is the caller's identity for the fact: the key, not the words, says whether
    // it is saved already, in force or not (an import run twice adds nothing).
    if (fact.key !== null) {
      const originKey = keyedFactKey(fact.agent, fact.key);
      const saved = await findFactByOriginKey(manager, originKey);
      if (saved) {
        const chain = await this.records.chain(manager, saved.id);
        return { factId: chain[chain.length - 1]!.id, deduplicated: true, announce: null };
      }
      const factId = await this.insert(manager, tenantId, fact, originKey, now, expiresAt);
      return { factId, deduplicated: false, announce: fact };
    }

    // The same save again (a retry, or sent twice): its own fact; its `created` is already in
    // the outbox (announcing it again adds nothing).
    const byKey = await this.lookUpKey(manager, savedFactKey(fact.agent, fact.content), now);
    if (byKey.kind === 'saved') {
      if (expiresAt) await renewFact(manager, byKey.fact.id, expiresAt);
      return { factId: byKey.fact.id, deduplicated: true, announce: byKey.fact };
    }

    const open = await openFactsSharingWords(manager, fact.agent, [fact.content], now);
    const duplicate = findDuplicateFact(fact.content, now, open, this.options.overlapThreshold);
    if (duplicate) {
      if (expiresAt) await renewFact(manager, duplicate.id, expiresAt);
      return { factId: duplicate.id, deduplicated: true, announce: null };
    }

    const factId = await this.insert(manager, tenantId, fact, byKey.originKey, now, expiresAt);
    return { factId, deduplicated: false, announce: fact };
  }

  /** A new fact: valid from the caller's time (then also created then) or now, closed if the caller says so. */
  private insert(
    manager: EntityManager,
    tenantId: string,
    fact: FactToSave,
    originKey: string,
    now: Date,
    expiresAt: Date | null,
  ): Promise<string> {
    return insertFact(manager, tenantId, {
      ...fact,
      origin: 'saved',
      originKey,
      validFrom: fact.validFrom ?? now,
      createdAt: fact.validFrom,
      validTo: fact.validTo,
      saveKey: fact.key,
      expiresAt,
    });
  }

  /**
   * Follows the content's keys: the first save of it takes the base key; one said again
   * after its predecessor was closed or expired (no longer in force at `now`) takes a key
   * naming that predecessor.
   */
  private async lookUpKey(manager: EntityManager, baseKey: string, now: Date): Promise<KeyLookup> {
    let originKey = baseKey;
    for (let i = 0; i < MAX_RESAVES; i++) {
      const fact = await findFactByOriginKey(manager, originKey);
      if (!fact) return { kind: 'free', originKey };
      if (isFactInForce(fact, now)) return { kind: 'saved', fact };
      originKey = resavedFactKey(baseKey, fact.id);
    }
    throw RpcError.failedPrecondition(`this fact was saved and forgotten more than ${MAX_RESAVES} times`);
  }

  /** The cited conversation and messages exist for this tenant and agent; the conversation they imply. */
  private async checkSources(manager: EntityManager, fact: FactToSave): Promise<string | null> {
    const conversationId = fact.conversationId;
    if (conversationId !== null) {
      const conversation = await this.facts.findConversation(manager, conversationId);
      if (!conversation)
        throw RpcError.notFound(`conversation ${conversationId} not found`, { conversationId });
      if (conversation.agent !== fact.agent) {
        throw RpcError.invalidArgument(
          `conversation ${conversationId} belongs to agent "${conversation.agent}", not "${fact.agent}"`,
          {
            conversationId,
            agent: fact.agent,
          },
        );
      }
    }
    if (fact.sourceMessageIds.length === 0) return conversationId;
    const found = await this.facts.findMessages(manager, fact.sourceMessageIds);
    const known = new Set(found.map((m) => m.id));
    const missing = fact.sourceMessageIds.filter((id) => !known.has(id));
    if (missing.length > 0) {
      throw RpcError.notFound(
        `source message${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not found`,
        { missingMessageIds: missing },
      );
    }
    const foreign = found.filter((m) =>
      conversationId !== null ? m.conversationId !== conversationId : m.agent !== fact.agent,
    );
    if (foreign.length > 0) {
      throw RpcError.invalidArgument(
        conversationId !== null
          ? `source messages must be in conversation ${conversationId}: ${foreign.map((m) => m.id).join(', ')} are not`
          : `source messages must be of agent "${fact.agent}": ${foreign.map((m) => m.id).join(', ')} are not`,
        { messageIds: foreign.map((m) => m.id) },
      );
    }
    // Sources from one conversation name it, as a tagged fact names the conversation of its tag.
    const conversations = new Set(found.map((m) => m.conversationId));
    return conversationId ?? (conversations.size === 1 ? [...conversations][0]! : null);
  }
}
