import { tenantOfSubject, type MessageStored } from '@engram/contracts';
import type { Delivery } from '@engram/messaging';
import type { Context } from '@engram/telemetry';

/** A conversation whose transcript grew: what the summary tree and session compaction run on. */
export interface ConversationTrigger {
  readonly tenantId: string;
  readonly conversationId: string;
  readonly traceContext?: Context;
}

/** One bounded run over a conversation; true when it stopped short of its backlog (another is due). */
export type ConversationRun = (trigger: ConversationTrigger) => Promise<boolean>;

/** Runs a conversation gets in one batch, at most: a backlog is worked through by the batches that announce it. */
export const ROUNDS_PER_BATCH = 4;

/**
 * Runs a batch of mem.message.stored (the deliveries `keep` accepts) per conversation, in
 * rounds: each round gives every conversation still due one bounded run, one after another (a
 * due run holds an advisory-lock connection across Gerty's answers, and all at once would take
 * every one the process has). After a conversation's first run its deliveries are settled but
 * its newest, which stays unacknowledged while later rounds continue the backlog: so the
 * consumer's acknowledgements keep up with the work, and a process killed mid-backlog leaves a
 * delivery that resumes it. A run that fails retries only its own conversation's deliveries.
 */
export async function runPerConversation(
  deliveries: readonly Delivery<MessageStored>[],
  keep: (d: Delivery<MessageStored>) => boolean,
  run: ConversationRun,
): Promise<void> {
  let due = [...groupByConversation(deliveries.filter(keep)).values()];
  for (let round = 1; due.length > 0; round++) {
    const next: Delivery<MessageStored>[][] = [];
    for (const group of due) {
      const newest = group.at(-1)!;
      const more = await runOnce(group, run);
      if (more && round < ROUNDS_PER_BATCH) {
        await Promise.all(group.slice(0, -1).map((d) => d.finish()));
        next.push([newest]);
      } else {
        await Promise.all(group.map((d) => d.finish()));
      }
    }
    due = next;
  }
}

/** Deliveries by tenant and conversation, each group in stream order. */
function groupByConversation(
  deliveries: readonly Delivery<MessageStored>[],
): Map<string, Delivery<MessageStored>[]> {
  const groups = new Map<string, Delivery<MessageStored>[]>();
  for (const d of deliveries) {
    const key = `${tenantOfSubject(d.subject)}/${d.message.conversationId}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  return groups;
}

/** One run with the group's first trace; a failure marks the whole group for retry and reports nothing more due. */
async function runOnce(group: readonly Delivery<MessageStored>[], run: ConversationRun): Promise<boolean> {
  const first = group[0]!;
  try {
    return await run({
      tenantId: tenantOfSubject(first.subject),
      conversationId: first.message.conversationId,
      traceContext: first.traceContext,
    });
  } catch (error) {
    for (const d of group) d.retryAfter(error);
    return false;
  }
}
