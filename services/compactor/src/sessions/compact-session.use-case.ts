import { Inject, Injectable } from '@nestjs/common';
import { Events, MsgIds, timestampFromDate } from '@engram/contracts';
import {
  chunksOf,
  compactionDue,
  compactionStepKey,
  estimateTokens,
  LINE_OVERHEAD_TOKENS,
  modelWindowOf,
  planSessionCompaction,
  summaryBudget,
  summaryChunks,
  unreadByTurns,
  type SummaryTreePolicy,
  type SessionCompactionPolicy,
} from '@engram/memory-core';
import { Outbox } from '@engram/messaging';
import type { SummarizeRequest } from '@engram/prompts';
import { DataSource, lockFactWriters, TenantTransactions, withAdvisoryLocks } from '@engram/store';
import {
  ExtractFactsUseCase,
  FACT_WINDOW_MESSAGES,
  type ExtractedWindow,
  type FactAnnouncement,
  type FactOrigin,
} from '../facts/extract-facts.use-case';
import { CompactorGertyGateway, type WrittenSummary } from '../gateway/compactor-gerty.gateway';
import { SUMMARY_TREE_POLICY } from '../summaries/summary-tree.policy';
import type { ConversationTrigger } from '../conversation-runs';
import { SESSION_COMPACTION_POLICY } from './session-compaction.policy';
import {
  SessionCompactionRepository,
  type CompactedConversation,
  type PreviousCompaction,
  type UncompactedMessage,
} from './session-compaction.repository';

/** Extraction windows asked of Gerty at once for one step. */
const AT_ONCE = 4;
/** Longest rolling summary asked for: the context builder gives it its own share of the prompt. */
const MAX_SUMMARY_CHARS = 8000;

/**
 * Session compaction: when a conversation's uncompacted messages pass 75 % of its model's
 * window, its oldest ones (down to 40 %, the newest 10 always kept, at most 240 a step: a
 * step cut short is continued by the conversation's next run, and says so) get the facts
 * of those no turn's extraction reads extracted (windows of at most 15 messages, keyed by
 * the step: a turn's window already covers the rest), and are folded into a
 * rolling summary with the previous compaction's; then one transaction writes the facts,
 * the compaction row and the messages' compacted_at (never deleting a message), with the
 * step's mem.fact.upserted and mem.compaction.created in its outbox. One writer per
 * conversation (an advisory lock held across Gerty's answers), and the store refuses a
 * second record of a step or a message compacted twice; a crash before the commit leaves
 * nothing, and what committed is announced by the outbox whatever happens next.
 */
@Injectable()
export class CompactSessionUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TenantTransactions,
    private readonly compactions: SessionCompactionRepository,
    private readonly facts: ExtractFactsUseCase,
    private readonly gateway: CompactorGertyGateway,
    private readonly outbox: Outbox,
    @Inject(SESSION_COMPACTION_POLICY) private readonly policy: SessionCompactionPolicy,
    @Inject(SUMMARY_TREE_POLICY) private readonly summaries: SummaryTreePolicy,
  ) {}

  async compact(trigger: ConversationTrigger): Promise<boolean> {
    const { tenantId, conversationId } = trigger;
    // A cheap look first: most turns leave a conversation under its threshold, and take no lock.
    const state = await this.transactions.run(tenantId, (m) => this.compactions.state(m, conversationId));
    if (!state) return false;
    const windowTokens = modelWindowOf(state.model, this.policy.modelWindows).windowTokens;
    if (!compactionDue(state.uncompactedTokens, windowTokens, this.policy, state.continuing)) return false;

    return withAdvisoryLocks(this.dataSource, [`compaction/${tenantId}/${conversationId}`], async () => {
      const conversation = await this.transactions.run(tenantId, (m) =>
        this.compactions.conversation(m, conversationId),
      );
      if (!conversation) return false;
      const uncompacted = await this.transactions.run(tenantId, (m) =>
        this.compactions.uncompacted(m, conversationId),
      );
      const previous = await this.transactions.run(tenantId, (m) =>
        this.compactions.latest(m, conversationId),
      );
      const step = planSessionCompaction(
        uncompacted,
        modelWindowOf(conversation.model, this.policy.modelWindows).windowTokens,
        this.policy,
        previous?.cutShort ?? false,
      );
      if (!step) return false;
      const keyToken = compactionStepKey(conversationId, step.messages.at(-1)!.id);
      const origin: FactOrigin = { tenantId, agent: conversation.agent, conversationId, keyToken };

      // Memory off for the tenant: the transcript is still compacted, but no fact is derived from it.
      // What a turn's extraction reads (compactor-facts) is not asked twice: only the rest.
      const unread = new Set(unreadByTurns(uncompacted, FACT_WINDOW_MESSAGES));
      const extracted = conversation.memoryEnabled
        ? await this.extractFacts(
            tenantId,
            step.messages.filter((m) => unread.has(m)),
          )
        : [];
      const summary = await this.summarize(tenantId, conversation, previous, step.messages);

      await this.transactions.run(tenantId, async (m) => {
        const written: FactAnnouncement[] = [];
        if (extracted.length > 0) {
          await lockFactWriters(m, tenantId, conversation.agent);
          for (const window of extracted)
            written.push(...(await this.facts.writeAll(m, origin, window, trigger.traceContext)));
        }
        const factIds = [
          ...new Set(written.filter((a) => a.operation !== 'superseded').map((a) => a.factId)),
        ];
        const compaction = await this.compactions.insert(m, {
          tenantId,
          conversationId,
          agent: conversation.agent,
          content: summary.text,
          tokenEstimate: estimateTokens(summary.text),
          model: summary.model,
          messageIds: step.messages.map((s) => s.id),
          compactedTokens: step.compactedTokens,
          cutShort: step.cutShort,
          factIds,
          previousId: previous?.id ?? null,
        });
        await this.outbox.announce(
          m,
          Events.compactionCreated,
          tenantId,
          {
            tenantId,
            agent: conversation.agent,
            conversationId,
            compactionId: compaction.id,
            firstMessageId: compaction.firstMessageId ?? '',
            lastMessageId: compaction.lastMessageId,
            messageCount: compaction.messageCount,
            compactedTokens: compaction.compactedTokens,
            earliestAt: timestampFromDate(compaction.earliestAt),
            latestAt: timestampFromDate(compaction.latestAt),
            model: summary.model,
            tokenEstimate: compaction.tokenEstimate,
            factIds,
          },
          { msgId: MsgIds.compactionCreated(tenantId, compaction.id), traceContext: trigger.traceContext },
        );
      });
      return step.cutShort;
    });
  }

  /** Facts of the compacted messages, in windows of at most 15 (a few asked at once). */
  private async extractFacts(
    tenantId: string,
    messages: readonly UncompactedMessage[],
  ): Promise<ExtractedWindow[]> {
    const windows = chunksOf(messages, FACT_WINDOW_MESSAGES);
    const out: ExtractedWindow[] = [];
    for (let i = 0; i < windows.length; i += AT_ONCE) {
      const answers = await Promise.all(
        windows.slice(i, i + AT_ONCE).map((w) => this.facts.extractWindow(tenantId, w)),
      );
      for (const a of answers) if (a) out.push(a);
    }
    return out;
  }

  /**
   * The rolling summary: the previous compaction's summary and the new messages, folded in
   * chunks that fit the summarising model's window beside the running summary.
   */
  private async summarize(
    tenantId: string,
    conversation: CompactedConversation,
    previous: PreviousCompaction | null,
    messages: readonly UncompactedMessage[],
  ): Promise<WrittenSummary> {
    const { inputTokens, maxTokens } = summaryBudget(this.summaries, 0);
    const maxChars = Math.max(400, Math.min(MAX_SUMMARY_CHARS, Math.floor(inputTokens / 2) * 4));
    const carryTokens =
      Math.max(Math.ceil(maxChars / 4), previous ? estimateTokens(previous.content) : 0) +
      LINE_OVERHEAD_TOKENS;
    let carry: { text: string; at: Date } | null = previous
      ? { text: previous.content, at: previous.earliestAt }
      : null;
    let from = previous?.earliestAt ?? messages[0]!.createdAt;
    let count = previous?.messagesSoFar ?? 0;
    let written: WrittenSummary | null = null;
    for (const chunk of summaryChunks(messages, inputTokens, carry ? carryTokens : 0)) {
      count += chunk.length;
      if (chunk[0]!.createdAt < from) from = chunk[0]!.createdAt;
      const lines: SummarizeRequest['lines'] = [
        ...(carry
          ? [
              {
                id: previous ? `compaction:${previous.id}` : 'compaction',
                ordinal: 0,
                at: carry.at.toISOString(),
                role: 'system' as const,
                text: carry.text,
              },
            ]
          : []),
        ...chunk.map((m, i) => ({
          id: m.id,
          ordinal: i + 1,
          at: m.createdAt.toISOString(),
          role: m.role,
          ...(m.author && { author: m.author }),
          text: m.content,
        })),
      ];
      written = await this.gateway.summarizeSession(tenantId, {
        preamble: {
          conversationId: conversation.id,
          agent: conversation.agent,
          ...(conversation.channel && { channel: conversation.channel }),
          ...(conversation.title && { title: conversation.title }),
          from: from.toISOString(),
          to: chunk.at(-1)!.createdAt.toISOString(),
          messageCount: count,
        },
        lines,
        depth: carry ? 1 : 0,
        maxChars,
        ...(maxTokens && { maxTokens }),
      });
      carry = { text: written.text, at: from };
    }
    return written!;
  }
}
