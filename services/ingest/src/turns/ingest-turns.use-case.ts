import { Inject, Injectable, Logger } from '@nestjs/common';
import { detectAll } from 'tinyld';
import { Events, MsgIds, timestampFromDate, type TurnEvent } from '@engram/contracts';
import {
  DEFAULT_TEXT_SEARCH,
  normalizeTurn,
  textSearchOf,
  type NormalizedMessage,
  type NormalizedTurn,
  type TurnEnvelope,
} from '@engram/memory-core';
import { errorMessage, eventEntry, isDependencyFailure, Outbox } from '@engram/messaging';
import { counter, SharedMetricNames } from '@engram/platform';
import {
  actAsTenant,
  ensureTenant,
  TenantTransactions,
  type EntityManager,
  type OutboxEntry,
} from '@engram/store';
import type { Context } from '@engram/telemetry';
import { INGEST_CONFIG, type IngestConfig } from '../ingest.config';
import {
  TaggedMemoryRepository,
  type RecordedFact,
  type TaggedFact,
  type TaggedStateValue,
} from './tagged-memory.repository';
import {
  TranscriptRepository,
  type ConversationTotals,
  type StoredMessageRow,
} from './transcript.repository';

export interface IncomingTurn {
  readonly event: TurnEvent;
  readonly envelope: TurnEnvelope;
  readonly traceContext: Context;
  /** JetStream delivered it before: its messages may be stored already (a crash between commit and ack). */
  readonly redelivered?: boolean;
}

export type TurnOutcome =
  | { readonly kind: 'stored' }
  | { readonly kind: 'invalid'; readonly reason: string; readonly problems: readonly string[] }
  | { readonly kind: 'failed'; readonly reason: string; readonly dependencyDown: boolean };

/** A turn that passed validation, with its place in the batch and the trace it continues. */
interface ValidTurn {
  readonly index: number;
  readonly turn: NormalizedTurn;
  readonly traceContext: Context;
  readonly redelivered: boolean;
}

/** One tenant's part of a batch after its messages were written, before facts and counters. */
interface WrittenTurns {
  readonly tenantId: string;
  readonly turns: readonly NormalizedTurn[];
  readonly memoryEnabled: boolean;
  readonly conversations: Map<string, string>;
  readonly conversationOf: ReadonlyMap<NormalizedTurn, string>;
  readonly rows: ReadonlyArray<{ conversationId: string; turn: NormalizedTurn; message: NormalizedMessage }>;
  /** Languages decided in this batch, by conversation id. */
  readonly decided: ReadonlyMap<string, string>;
  readonly idOf: ReadonlyMap<string, StoredMessageRow>;
  readonly isNew: ReadonlySet<string>;
}

const messagesStored = counter(
  SharedMetricNames.messagesStored,
  'Messages ingest stored (new rows, committed)',
  [],
);

const rowKey = (conversationId: string, turnId: string, position: number) =>
  `${conversationId}/${turnId}/${position}`;

/**
 * Makes a batch of turns durable in one transaction (every message of a turn or
 * none), with each turn's mem.message.stored (and its tagged facts' mem.fact.upserted)
 * in the outbox of that transaction. Safe to run again for the same turns: nothing is
 * added twice, the announcements included (the outbox keeps one row per msg id).
 */
@Injectable()
export class IngestTurnsUseCase {
  private readonly logger = new Logger(IngestTurnsUseCase.name);

  constructor(
    private readonly transactions: TenantTransactions,
    private readonly transcript: TranscriptRepository,
    private readonly taggedMemory: TaggedMemoryRepository,
    private readonly outbox: Outbox,
    @Inject(INGEST_CONFIG) private readonly config: IngestConfig,
  ) {}

  async ingest(incoming: readonly IncomingTurn[]): Promise<TurnOutcome[]> {
    const outcomes: TurnOutcome[] = new Array(incoming.length);
    const valid: ValidTurn[] = [];
    const duplicates: Array<{ index: number; of: number }> = [];
    const firstByKey = new Map<string, number>();
    incoming.forEach((item, index) => {
      const result = normalizeTurn(item.event, item.envelope, {
        maxMessagesPerTurn: this.config.INGEST_MAX_MESSAGES_PER_TURN,
        maxContentChars: this.config.INGEST_MAX_CONTENT_CHARS,
      });
      if (!result.ok) {
        outcomes[index] = { kind: 'invalid', reason: result.reason, problems: result.problems };
        return;
      }
      // The same turn twice in one batch (published twice, or redelivered while queued) is stored once.
      const { tenantId, agent, sessionKey, turnId } = result.turn;
      const key = JSON.stringify([tenantId, agent, sessionKey, turnId]);
      const first = firstByKey.get(key);
      if (first !== undefined) {
        duplicates.push({ index, of: first });
        return;
      }
      firstByKey.set(key, index);
      valid.push({
        index,
        turn: result.turn,
        traceContext: item.traceContext,
        redelivered: item.redelivered ?? false,
      });
    });
    await this.storeValid(valid, outcomes);
    for (const { index, of } of duplicates) outcomes[index] = outcomes[of]!;
    return outcomes;
  }

  /** Fills in the outcome of every valid turn. */
  private async storeValid(valid: ValidTurn[], outcomes: TurnOutcome[]): Promise<void> {
    if (valid.length === 0) return;

    try {
      await this.store(valid);
    } catch (error) {
      if (valid.length === 1 || isDependencyFailure(error)) {
        for (const item of valid) outcomes[item.index] = failureOf(error);
        return;
      }
      // One bad turn must not hold back the others: store them one by one.
      this.logger.warn(
        `batch of ${valid.length} turns failed (${errorMessage(error)}); storing them one by one`,
      );
      for (const item of valid) {
        try {
          await this.store([item]);
          outcomes[item.index] = { kind: 'stored' };
        } catch (singleError) {
          outcomes[item.index] = failureOf(singleError);
        }
      }
      return;
    }
    for (const item of valid) outcomes[item.index] = { kind: 'stored' };
  }

  /**
   * One transaction for the batch, in two passes over its tenants. First the messages:
   * new rows only, which no other batch waits for. Then what concurrent batches do
   * contend for (a conversation's counters, an agent's facts), so that those locks are
   * held only from there to the commit instead of for the whole transaction.
   */
  private async store(items: readonly ValidTurn[]): Promise<void> {
    const byTenant = new Map<string, NormalizedTurn[]>();
    for (const { turn } of items) {
      if (!byTenant.has(turn.tenantId)) byTenant.set(turn.tenantId, []);
      byTenant.get(turn.tenantId)!.push(turn);
    }
    const traceOf = new Map(items.map((i) => [i.turn, i.traceContext]));
    const redelivered = new Set(items.filter((i) => i.redelivered).map((i) => i.turn));
    let added = 0;
    await this.transactions.runAcrossTenants(async (manager) => {
      added = 0;
      const written: WrittenTurns[] = [];
      for (const tenantId of [...byTenant.keys()].sort()) {
        await actAsTenant(manager, tenantId);
        const turns = byTenant.get(tenantId)!;
        const w = await this.writeMessages(manager, tenantId, turns, {
          mayBeStored: turns.some((t) => redelivered.has(t)),
        });
        await this.outbox.add(
          manager,
          tenantId,
          w.turns.map((turn) => storedEvent(w, turn, traceOf.get(turn)!)),
        );
        written.push(w);
        added += w.isNew.size;
      }
      for (const w of written) {
        await actAsTenant(manager, w.tenantId);
        const facts = await this.recordDerived(manager, w);
        if (facts.length > 0) {
          const turnOf = new Map(
            w.rows.map(({ conversationId, turn, message }) => [
              w.idOf.get(rowKey(conversationId, turn.turnId, message.position))!.id,
              turn,
            ]),
          );
          await this.outbox.add(
            manager,
            w.tenantId,
            facts.map((f) =>
              factEvent(w, turnOf.get(f.messageId)!, f, traceOf.get(turnOf.get(f.messageId)!)!),
            ),
          );
        }
      }
    });
    // Counted once committed: the health page's ingest rate (heartbeat counter messages_stored).
    messagesStored.inc(added);
  }

  /** The tenant, its conversations (found or created) and the turns' message rows (new or found). */
  private async writeMessages(
    manager: EntityManager,
    tenantId: string,
    turns: NormalizedTurn[],
    options: { mayBeStored: boolean },
  ): Promise<WrittenTurns> {
    const { memoryEnabled } = await ensureTenant(manager, tenantId);
    const conversations = await this.transcript.findOrCreateConversations(manager, tenantId, turns);
    const conversationOf = new Map(turns.map((t) => [t, this.transcript.conversationIdOf(conversations, t)]));
    const turnRows = turns.flatMap((turn) =>
      turn.messages.map((message) => ({ conversationId: conversationOf.get(turn)!, turn, message })),
    );
    const { languages, decided } = await this.languagesOf(manager, turnRows);
    const rows = turnRows.map((r) => ({ ...r, language: languages.get(r.conversationId)! }));
    const inserted = await this.transcript.insertMessages(manager, tenantId, rows, options);
    await this.transcript.addTenantLanguages(manager, tenantId, [...new Set(languages.values())]);

    const idOf = new Map(inserted.map((r) => [rowKey(r.conversationId, r.turnId, r.position), r]));
    const isNew = new Set(inserted.map((r) => r.id));
    const incomplete = turns.filter((t) =>
      t.messages.some((m) => !idOf.has(rowKey(conversationOf.get(t)!, t.turnId, m.position))),
    );
    for (const found of await this.transcript.findTurnMessages(
      manager,
      incomplete.map((t) => ({ conversationId: conversationOf.get(t)!, turnId: t.turnId })),
    )) {
      idOf.set(rowKey(found.conversationId, found.turnId, found.position), found);
    }
    return { tenantId, turns, memoryEnabled, conversations, conversationOf, rows, decided, idOf, isNew };
  }

  /**
   * Each conversation's text-search configuration for the batch's messages: the one decided
   * before, or one decided now from its earlier and new user and assistant messages
   * (`decided`, recorded with the counters), or DEFAULT_TEXT_SEARCH while its text says too
   * little. Decided once per conversation: a short or odd message cannot flip it.
   */
  private async languagesOf(
    manager: EntityManager,
    rows: ReadonlyArray<{ conversationId: string; message: NormalizedMessage }>,
  ): Promise<{ languages: Map<string, string>; decided: Map<string, string> }> {
    const spoken = new Map<string, string[]>();
    for (const { conversationId, message } of rows) {
      if (!spoken.has(conversationId)) spoken.set(conversationId, []);
      if (message.role === 'user' || message.role === 'assistant')
        spoken.get(conversationId)!.push(message.content);
    }
    const ids = [...spoken.keys()];
    const known = await this.transcript.conversationLanguages(manager, ids);
    const undecided = ids.filter((id) => !known.get(id));
    const earlier = undecided.length > 0 ? await this.transcript.earlierTexts(manager, undecided) : new Map();
    const languages = new Map<string, string>();
    const decided = new Map<string, string>();
    for (const id of ids) {
      const stored = known.get(id);
      if (stored) {
        languages.set(id, stored);
        continue;
      }
      const language = textSearchOf([...(earlier.get(id) ?? []), ...spoken.get(id)!], detectAll);
      if (language) decided.set(id, language);
      languages.set(id, language ?? DEFAULT_TEXT_SEARCH);
    }
    return { languages, decided };
  }

  /** Facts and state from the turns' tags, then the conversations' metadata and counters; the facts. */
  private async recordDerived(manager: EntityManager, written: WrittenTurns): Promise<RecordedFact[]> {
    const { tenantId, turns, memoryEnabled, conversations, rows, decided, idOf, isNew } = written;
    const totals = new Map<string, Mutable<ConversationTotals>>();
    const newFacts: TaggedFact[] = [];
    const knownFacts: TaggedFact[] = [];
    const state: TaggedStateValue[] = [];
    for (const { conversationId, turn, message } of rows) {
      const row = idOf.get(rowKey(conversationId, turn.turnId, message.position))!;
      const fresh = isNew.has(row.id);
      if (fresh) {
        const total = totals.get(conversationId) ?? {
          messages: 0,
          tokens: 0,
          firstAt: message.createdAt,
          lastAt: message.createdAt,
        };
        total.messages++;
        total.tokens += message.tokenEstimate;
        if (message.createdAt < total.firstAt) total.firstAt = message.createdAt;
        if (message.createdAt > total.lastAt) total.lastAt = message.createdAt;
        totals.set(conversationId, total);
      }
      if (!memoryEnabled) continue;
      for (const memory of message.memories) {
        (fresh ? newFacts : knownFacts).push({
          agent: turn.agent,
          conversationId,
          messageId: row.id,
          tagIndex: memory.index,
          type: memory.type,
          content: memory.content,
          statedAt: message.createdAt,
        });
      }
      if (fresh) {
        for (const s of message.state) {
          state.push({
            agent: turn.agent,
            key: s.key,
            value: s.value,
            messageId: row.id,
            statedAt: message.createdAt,
          });
        }
      }
    }
    const facts = [
      ...(await this.taggedMemory.recordFacts(
        manager,
        tenantId,
        newFacts,
        this.config.FACT_OVERLAP_THRESHOLD,
      )),
      ...(await this.taggedMemory.findRecordedFacts(manager, knownFacts)),
    ];
    await this.taggedMemory.recordState(manager, tenantId, state);
    await this.transcript.refreshConversations(manager, conversations, turns, totals, decided);
    return facts;
  }
}

/** A stored turn's mem.message.stored (the same msg id on a redelivery: the outbox adds nothing then). */
function storedEvent(written: WrittenTurns, turn: NormalizedTurn, traceContext: Context): OutboxEntry {
  const { tenantId, memoryEnabled } = written;
  const conversationId = written.conversationOf.get(turn)!;
  return eventEntry(
    Events.messageStored,
    tenantId,
    {
      tenantId,
      agent: turn.agent,
      conversationId,
      sessionKey: turn.sessionKey,
      turnId: turn.turnId,
      memoryEnabled,
      skipFactExtraction: turn.skipFactExtraction,
      storedAt: timestampFromDate(new Date()),
      messages: turn.messages.map((m) => ({
        id: written.idOf.get(rowKey(conversationId, turn.turnId, m.position))!.id,
        role: m.role,
        createdAt: timestampFromDate(m.createdAt),
        toolName: m.toolName ?? '',
        contentEmpty: m.content.trim() === '',
        tokenEstimate: m.tokenEstimate,
      })),
    },
    { msgId: MsgIds.messageStored(tenantId, conversationId, turn.turnId), traceContext },
  );
}

/** The mem.fact.upserted of a fact a turn's tag made. */
function factEvent(
  written: WrittenTurns,
  turn: NormalizedTurn,
  fact: RecordedFact,
  traceContext: Context,
): OutboxEntry {
  const { tenantId } = written;
  return eventEntry(
    Events.factUpserted,
    tenantId,
    {
      tenantId,
      agent: fact.agent,
      factId: fact.id,
      operation: 'created',
      category: fact.category,
      conversationId: written.conversationOf.get(turn)!,
    },
    { msgId: MsgIds.factCreated(tenantId, fact.id), traceContext },
  );
}

/**
 * Postgres data and integrity errors (classes 22, 23 but a unique race, and 54) will
 * fail the same way every time: dead-letter at once instead of retrying.
 */
function failureOf(error: unknown): TurnOutcome {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (/^(22|54)/.test(code) || (code.startsWith('23') && code !== '23505'))) {
    return {
      kind: 'invalid',
      reason: `the store refused the turn: ${errorMessage(error)} (SQLSTATE ${code})`,
      problems: [],
    };
  }
  return { kind: 'failed', reason: errorMessage(error), dependencyDown: isDependencyFailure(error) };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
