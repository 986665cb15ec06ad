import { Injectable } from '@nestjs/common';
import { Events } from '@engram/contracts';
import { classifyMemoryTag, expiryOf, extractedFactKey, factSources, planExtractedFact, statedAt, type FactCategory } from '@engram/memory-core';
import { EventPublisher } from '@engram/messaging';
import { lockFactWriters, TenantTransactions, type EntityManager } from '@engram/store';
import type { Context } from '@engram/telemetry';
import { GertyGateway, type ExtractedFact } from '../gateway/gerty.gateway';
import { ExtractedFactRepository, type WindowMessage } from './extracted-fact.repository';

/** How many of the conversation's last messages (up to the turn) a turn's facts come from. */
export const FACT_WINDOW_MESSAGES = 15;

export interface AssistantTurn {
  readonly tenantId: string;
  readonly agent: string;
  readonly conversationId: string;
  /** The turn's (last) assistant message: where the window ends, and what keys its facts. */
  readonly turnMessageId: string;
  readonly traceContext?: Context;
}

/** A mem.fact.upserted due after the commit, with its msg id. */
interface Announcement {
  readonly factId: string;
  readonly operation: 'created' | 'updated' | 'superseded';
  readonly category: FactCategory;
  readonly supersededBy?: string;
  readonly msgId: string;
}

/**
 * Facts after an assistant turn: the conversation's last 15 messages up to the turn go to
 * Gerty's extract_facts (each line with its own time, so "tomorrow" becomes a date); each
 * fact is embedded, then, under the agent's fact-writers lock, updated in place over an
 * open fact at cosine ≥ 0.90, or inserted (a correction closing the older fact it replaces).
 * Announced on mem.fact.upserted after the commit. A redelivered turn finds its facts by
 * their key (turn + content) or updates them again in place: nothing is inserted twice.
 */
@Injectable()
export class ExtractFactsUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly facts: ExtractedFactRepository,
    private readonly gerty: GertyGateway,
    private readonly events: EventPublisher,
  ) {}

  async execute(turn: AssistantTurn): Promise<void> {
    const { tenantId, agent } = turn;
    const window = await this.transactions.run(tenantId, (m) => this.facts.window(m, turn.turnMessageId, FACT_WINDOW_MESSAGES));
    if (!window.some((w) => w.role === 'user' && w.content)) return;

    const extracted = await this.gerty.extractFacts(
      tenantId,
      window.map((w) => ({ id: w.id, at: w.createdAt.toISOString(), role: w.role, ...(w.author && { author: w.author }), text: w.content })),
      userNameOf(window),
    );
    if (extracted.length === 0) return;
    const { vectors, model } = await this.gerty.embed(
      tenantId,
      extracted.map((f) => f.content),
    );

    const announcements = await this.transactions.run(tenantId, async (m) => {
      await lockFactWriters(m, tenantId, agent);
      const out: Announcement[] = [];
      for (const [i, fact] of extracted.entries()) out.push(...(await this.write(m, turn, window, fact, vectors[i]!, model)));
      return out;
    });

    for (const a of announcements) {
      await this.events.publish(
        Events.factUpserted,
        tenantId,
        { tenantId, agent, factId: a.factId, operation: a.operation, category: a.category, supersededBy: a.supersededBy ?? '', conversationId: turn.conversationId },
        { msgId: a.msgId, ...(turn.traceContext && { traceContext: turn.traceContext }) },
      );
    }
  }

  private async write(m: EntityManager, turn: AssistantTurn, window: readonly WindowMessage[], fact: ExtractedFact, vector: readonly number[], model: string): Promise<Announcement[]> {
    const { tenantId, agent } = turn;
    const originKey = extractedFactKey(agent, turn.turnMessageId, fact.content);
    // This turn already inserted it (a redelivery): announced again under the same msg id.
    const inserted = await this.facts.findByOriginKey(m, originKey);
    if (inserted) return [{ factId: inserted.id, operation: 'created', category: inserted.category, msgId: createdMsgId(tenantId, inserted.id) }];

    const now = await this.facts.now(m);
    const lifetime = classifyMemoryTag(fact.category).lifetime;
    const sourceMessageIds = factSources(fact.sourceMessageIds, window);
    // Valid time is the world's: a fact holds from when it was said, not from when it was extracted,
    // and its lifetime counts from then too.
    const saidAt = statedAt(sourceMessageIds, window) ?? now;
    const row = {
      agent,
      content: fact.content,
      category: fact.category,
      lifetime,
      importance: fact.importance,
      conversationId: turn.conversationId,
      sourceMessageIds,
      expiresAt: expiryOf(lifetime, saidAt),
    };
    const plan = planExtractedFact(
      { category: fact.category, statedAt: saidAt },
      // In force when it was said (as ingest's dedup judges it): expiry counts from then too.
      await this.facts.nearestOpenFact(m, agent, vector, model, saidAt),
      await this.facts.nearestClosedFact(m, agent, vector, model),
    );
    if (plan.kind === 'skip') return [];
    if (plan.kind === 'update') {
      await this.facts.update(m, plan.factId, row);
      await this.facts.writeVector(m, tenantId, plan.factId, vector, model);
      return [{ factId: plan.factId, operation: 'updated', category: fact.category, msgId: `fact:${tenantId}:${plan.factId}:updated:${turn.turnMessageId}` }];
    }
    const factId = await this.facts.insert(m, tenantId, originKey, row, saidAt);
    await this.facts.writeVector(m, tenantId, factId, vector, model);
    const created: Announcement = { factId, operation: 'created', category: fact.category, msgId: createdMsgId(tenantId, factId) };
    if (plan.kind === 'insert') return [created];
    await this.facts.supersede(m, plan.factId, factId, saidAt);
    const older = await this.facts.findCategory(m, plan.factId);
    return [created, { factId: plan.factId, operation: 'superseded', category: older, supersededBy: factId, msgId: `fact:${tenantId}:${plan.factId}:superseded` }];
  }
}

/** The convention of every fact writer (ingest, memory_save): one `created` per fact. */
const createdMsgId = (tenantId: string, factId: string) => `fact:${tenantId}:${factId}:created`;

/** The latest user author in the window: facts then say "Ada …" rather than "The user …". */
function userNameOf(window: readonly WindowMessage[]): string | undefined {
  return [...window].reverse().find((w) => w.role === 'user' && w.author)?.author ?? undefined;
}
