import { Inject, Injectable } from '@nestjs/common';
import { Events, MsgIds } from '@engram/contracts';
import {
  extractedFactExpiry,
  extractedFactKey,
  factsOfExtraction,
  planExtractedFact,
  type ExtractedFactCandidate,
  type FactCategory,
} from '@engram/memory-core';
import { eventEntry, Outbox } from '@engram/messaging';
import {
  findFact,
  findFactByOriginKey,
  insertFact,
  lockFactWriters,
  restateFact,
  supersedeFact,
  TenantTransactions,
  type EntityManager,
} from '@engram/store';
import type { Context } from '@engram/telemetry';
import { COMPACTOR_CONFIG, type CompactorConfig } from '../compactor.config';
import { CompactorGertyGateway } from '../gateway/compactor-gerty.gateway';
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

/** A mem.fact.upserted a window's write puts in the outbox, with its msg id. */
export interface FactAnnouncement {
  readonly factId: string;
  readonly operation: 'created' | 'updated' | 'superseded';
  readonly category: FactCategory;
  readonly supersededBy?: string;
  readonly msgId: string;
}

/** Who the facts of a window belong to, and the token that keys them (the turn's message, or a compaction step). */
export interface FactOrigin {
  readonly tenantId: string;
  readonly agent: string;
  readonly conversationId: string;
  /** Part of each new fact's origin key and of its `updated` msg id: the same origin never adds a fact twice. */
  readonly keyToken: string;
}

/** What Gerty made of a window, before anything is written: its facts (factsOfExtraction) and their vectors. */
export interface ExtractedWindow {
  readonly window: readonly WindowMessage[];
  readonly facts: readonly ExtractedFactCandidate[];
  readonly vectors: ReadonlyArray<readonly number[]>;
  readonly model: string;
}

/**
 * Facts after an assistant turn: the conversation's last 15 messages up to the turn go to
 * Gerty's extract_facts (each line with its own time, so "tomorrow" becomes a date); each
 * fact is embedded, then, under the agent's fact-writers lock, updated in place over an
 * open fact at cosine ≥ FACT_SAME_SIMILARITY (0.90), or inserted (a correction closing the older fact it replaces).
 * Announced on mem.fact.upserted through the outbox of the same transaction. A redelivered
 * turn finds its facts by their key (turn + content) or updates them again in place:
 * nothing is inserted twice, and the same announcements (same msg ids) add no event.
 * Session compaction uses the same steps (extract, write, announce) over its own windows.
 */
@Injectable()
export class ExtractFactsUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly facts: ExtractedFactRepository,
    private readonly gerty: CompactorGertyGateway,
    private readonly outbox: Outbox,
    @Inject(COMPACTOR_CONFIG) private readonly config: CompactorConfig,
  ) {}

  async extract(turn: AssistantTurn): Promise<void> {
    const { tenantId, agent } = turn;
    const window = await this.transactions.run(tenantId, (m) =>
      this.facts.window(m, turn.turnMessageId, FACT_WINDOW_MESSAGES),
    );
    const extracted = await this.extractWindow(tenantId, window);
    if (!extracted) return;
    const origin: FactOrigin = {
      tenantId,
      agent,
      conversationId: turn.conversationId,
      keyToken: turn.turnMessageId,
    };
    await this.transactions.run(tenantId, async (m) => {
      await lockFactWriters(m, tenantId, agent);
      await this.writeAll(m, origin, extracted, turn.traceContext);
    });
  }

  /** Gerty's facts of a window (oldest message first) and their vectors; null when there are none (or no user spoke). */
  async extractWindow(tenantId: string, window: readonly WindowMessage[]): Promise<ExtractedWindow | null> {
    if (!window.some((w) => w.role === 'user' && w.content)) return null;
    const answer = await this.gerty.extractFacts(
      tenantId,
      window.map((w) => ({
        id: w.id,
        at: w.createdAt.toISOString(),
        role: w.role,
        ...(w.author && { author: w.author }),
        text: w.content,
      })),
      userNameOf(window),
      // The window's latest message: a conversation's first ones may predate its language.
      window.at(-1)!.language,
    );
    if (answer.length === 0) return null;
    const facts = factsOfExtraction(answer, window);
    const { vectors, model } = await this.gerty.embed(
      tenantId,
      facts.map((f) => f.content),
    );
    return { window, facts, vectors, model };
  }

  /** Writes a window's facts in the caller's transaction, which holds the agent's fact-writers lock. */
  async writeAll(
    m: EntityManager,
    origin: FactOrigin,
    extracted: ExtractedWindow,
    traceContext?: Context,
  ): Promise<FactAnnouncement[]> {
    const out: FactAnnouncement[] = [];
    for (const [i, fact] of extracted.facts.entries())
      out.push(...(await this.write(m, origin, fact, extracted.vectors[i]!, extracted.model)));
    const { tenantId, agent, conversationId } = origin;
    await this.outbox.add(
      m,
      tenantId,
      out.map((a) =>
        eventEntry(
          Events.factUpserted,
          tenantId,
          {
            tenantId,
            agent,
            factId: a.factId,
            operation: a.operation,
            category: a.category,
            supersededBy: a.supersededBy ?? '',
            conversationId,
          },
          { msgId: a.msgId, traceContext },
        ),
      ),
    );
    return out;
  }

  private async write(
    m: EntityManager,
    origin: FactOrigin,
    fact: ExtractedFactCandidate,
    vector: readonly number[],
    model: string,
  ): Promise<FactAnnouncement[]> {
    const { tenantId, agent } = origin;
    const originKey = extractedFactKey(agent, origin.keyToken, fact.content);
    // This origin already inserted it (a redelivery): its announcement is the same row again.
    const inserted = await findFactByOriginKey(m, originKey);
    if (inserted)
      return [
        {
          factId: inserted.id,
          operation: 'created',
          category: inserted.category,
          msgId: MsgIds.factCreated(tenantId, inserted.id),
        },
      ];

    const now = await this.facts.now(m);
    // Valid time is the world's: a fact holds from when it was said, not from when it was extracted,
    // and its lifetime counts from then too.
    const saidAt = fact.statedAt ?? now;
    const expiresAt = extractedFactExpiry(fact, now);
    const plan = planExtractedFact(
      { category: fact.category, statedAt: saidAt },
      // In force when it was said (as ingest's dedup judges it): expiry counts from then too.
      await this.facts.nearestOpenFact(m, agent, vector, model, saidAt),
      await this.facts.nearestClosedFact(m, agent, vector, model),
      this.config.FACT_SAME_SIMILARITY,
    );
    if (plan.kind === 'skip') return [];
    if (plan.kind === 'update') {
      await restateFact(m, plan.factId, { ...fact, expiresAt });
      await this.facts.writeVector(m, tenantId, plan.factId, vector, model);
      return [
        {
          factId: plan.factId,
          operation: 'updated',
          category: fact.category,
          msgId: MsgIds.factUpdated(tenantId, plan.factId, origin.keyToken),
        },
      ];
    }
    const factId = await insertFact(m, tenantId, {
      ...fact,
      agent,
      origin: 'extracted',
      originKey,
      conversationId: origin.conversationId,
      validFrom: saidAt,
      expiresAt,
    });
    await this.facts.writeVector(m, tenantId, factId, vector, model);
    const created: FactAnnouncement = {
      factId,
      operation: 'created',
      category: fact.category,
      msgId: MsgIds.factCreated(tenantId, factId),
    };
    if (plan.kind === 'insert') return [created];
    await supersedeFact(m, plan.factId, factId, { at: saidAt });
    const older = (await findFact(m, plan.factId))!;
    return [
      created,
      {
        factId: plan.factId,
        operation: 'superseded',
        category: older.category,
        supersededBy: factId,
        msgId: MsgIds.factSuperseded(tenantId, plan.factId),
      },
    ];
  }
}

/** The latest user author in the window: facts then say "Ada …" rather than "The user …". */
function userNameOf(window: readonly WindowMessage[]): string | undefined {
  return [...window].reverse().find((w) => w.role === 'user' && w.author)?.author ?? undefined;
}
