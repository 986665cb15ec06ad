import { Inject, Injectable } from '@nestjs/common';
import { Events, MsgIds, timestampFromDate } from '@engram/contracts';
import { Outbox } from '@engram/messaging';
import {
  estimateTokens,
  leafBatches,
  parentGroups,
  spanOf,
  spanOfMessages,
  summaryBudget,
  type SummaryTreePolicy,
} from '@engram/memory-core';
import type { SummarizeRequest } from '@engram/prompts';
import { DataSource, TenantTransactions, withAdvisoryLocks } from '@engram/store';
import { CompactorGertyGateway, type WrittenSummary } from '../gateway/compactor-gerty.gateway';
import { type ConversationTrigger } from '../conversation-runs';
import { SUMMARY_TREE_POLICY } from './summary-tree.policy';
import {
  SummaryRepository,
  type ConversationHeader,
  type OrphanSummary,
  type PendingMessage,
} from './summary.repository';

/**
 * Summaries asked of Gerty at once for one conversation (its own admission bounds the rest),
 * and leaves a run writes at most: a backlog is worked through by further runs, so no run holds
 * its conversation's lock, or its batch's acknowledgements, for long.
 */
const AT_ONCE = 4;

/**
 * Grows a conversation's summary tree by one bounded step: up to four leaves over its oldest
 * unsummarised messages once they pass a threshold, a branch per fan-out leaves, a root per fan-out branches;
 * each summary is announced on mem.summary.created through the outbox of the transaction
 * that writes it. One writer per conversation at a time (an advisory lock held across
 * Gerty's answers), and the store refuses a second parent for any source, so replicas and
 * redeliveries never summarise anything twice; run again, it finds nothing to do. Says whether
 * it stopped short of the conversation's backlog.
 */
@Injectable()
export class GrowSummaryTreeUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TenantTransactions,
    private readonly summaries: SummaryRepository,
    private readonly gateway: CompactorGertyGateway,
    private readonly outbox: Outbox,
    @Inject(SUMMARY_TREE_POLICY) private readonly policy: SummaryTreePolicy,
  ) {}

  grow(trigger: ConversationTrigger): Promise<boolean> {
    return withAdvisoryLocks(
      this.dataSource,
      [`summaries/${trigger.tenantId}/${trigger.conversationId}`],
      async () => {
        const conversation = await this.transactions.run(trigger.tenantId, (m) =>
          this.summaries.conversation(m, trigger.conversationId),
        );
        if (!conversation) return false;
        const more = await this.writeLeaves(trigger, conversation);
        for (const depth of [1, 2]) await this.writeParents(trigger, conversation, depth);
        return more;
      },
    );
  }

  /** Leaves over the oldest pending messages; true when it read as many as it may (more may wait). */
  private async writeLeaves(
    trigger: ConversationTrigger,
    conversation: ConversationHeader,
  ): Promise<boolean> {
    const { tenantId } = trigger;
    const limit = this.policy.leafMessages * AT_ONCE;
    const pending = await this.transactions.run(tenantId, (m) =>
      this.summaries.pendingMessages(m, conversation.id, limit),
    );
    await this.inTurns(
      leafBatches(pending, this.policy),
      (batch) => this.summarizeMessages(tenantId, conversation, batch),
      async (batch, written) => {
        await this.write(
          trigger,
          conversation,
          0,
          written,
          batch.map((m) => m.id),
        );
      },
    );
    return pending.length === limit;
  }

  private async writeParents(
    trigger: ConversationTrigger,
    conversation: ConversationHeader,
    depth: number,
  ): Promise<void> {
    const { tenantId } = trigger;
    const orphans = await this.transactions.run(tenantId, (m) =>
      this.summaries.orphans(m, conversation.id, depth - 1),
    );
    await this.inTurns(
      parentGroups(orphans, this.policy.fanOut),
      (children) => this.summarizeChildren(tenantId, conversation, depth, children),
      async (children, written) => {
        await this.write(
          trigger,
          conversation,
          depth,
          written,
          children.map((c) => c.id),
        );
      },
    );
  }

  /** Summaries are asked for a few at once but written in order, so ids follow the transcript. */
  private async inTurns<T>(
    items: readonly T[],
    summarize: (item: T) => Promise<WrittenSummary>,
    write: (item: T, written: WrittenSummary) => Promise<void>,
  ): Promise<void> {
    for (let i = 0; i < items.length; i += AT_ONCE) {
      const slice = items.slice(i, i + AT_ONCE);
      const written = await Promise.all(slice.map(summarize));
      for (const [k, item] of slice.entries()) await write(item, written[k]!);
    }
  }

  /** The summary, its links and its mem.summary.created, in one transaction. */
  private write(
    trigger: ConversationTrigger,
    conversation: ConversationHeader,
    depth: number,
    written: WrittenSummary,
    sourceIds: string[],
  ): Promise<void> {
    const { tenantId } = trigger;
    return this.transactions.run(tenantId, async (m) => {
      const summary = await this.summaries.insert(m, {
        tenantId,
        conversationId: conversation.id,
        agent: conversation.agent,
        depth,
        content: written.text,
        tokenEstimate: estimateTokens(written.text),
        model: written.model,
        sourceIds,
      });
      await this.outbox.announce(
        m,
        Events.summaryCreated,
        tenantId,
        {
          tenantId,
          agent: conversation.agent,
          conversationId: conversation.id,
          summaryId: summary.id,
          depth,
          earliestAt: timestampFromDate(summary.earliestAt),
          latestAt: timestampFromDate(summary.latestAt),
          messageCount: summary.messageCount,
          model: written.model,
        },
        { msgId: MsgIds.summaryCreated(tenantId, summary.id), traceContext: trigger.traceContext },
      );
    });
  }

  private summarizeMessages(
    tenantId: string,
    conversation: ConversationHeader,
    batch: readonly PendingMessage[],
  ): Promise<WrittenSummary> {
    const span = spanOfMessages(batch.map((m) => m.createdAt));
    return this.gateway.summarize(tenantId, {
      ...this.request(conversation, span.earliestAt, span.latestAt, span.messageCount, 0),
      lines: batch.map((m, i) => ({
        id: m.id,
        ordinal: i + 1,
        at: m.createdAt.toISOString(),
        role: m.role,
        ...(m.author && { author: m.author }),
        text: m.content,
      })),
    });
  }

  private summarizeChildren(
    tenantId: string,
    conversation: ConversationHeader,
    depth: number,
    children: readonly OrphanSummary[],
  ): Promise<WrittenSummary> {
    const span = spanOf(children);
    return this.gateway.summarize(tenantId, {
      ...this.request(conversation, span.earliestAt, span.latestAt, span.messageCount, depth),
      lines: children.map((c, i) => ({
        id: c.id,
        ordinal: i + 1,
        at: c.earliestAt.toISOString(),
        role: 'system' as const,
        text: c.content,
      })),
    });
  }

  private request(
    conversation: ConversationHeader,
    from: Date,
    to: Date,
    messageCount: number,
    depth: number,
  ): Omit<SummarizeRequest, 'lines'> {
    const { maxChars, maxTokens } = summaryBudget(this.policy, depth);
    return {
      preamble: {
        conversationId: conversation.id,
        agent: conversation.agent,
        ...(conversation.channel && { channel: conversation.channel }),
        ...(conversation.title && { title: conversation.title }),
        from: from.toISOString(),
        to: to.toISOString(),
        messageCount,
      },
      depth,
      maxChars,
      ...(maxTokens && { maxTokens }),
    };
  }
}
