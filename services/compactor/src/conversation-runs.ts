import { tenantOfSubject, type MessageStored } from '@engram/contracts';
import type { Delivery } from '@engram/messaging';
import type { Context } from '@engram/telemetry';

/** A conversation whose transcript grew: what the summary tree and session compaction run on. */
export interface ConversationTrigger {
  readonly tenantId: string;
  readonly conversationId: string;
  readonly traceContext?: Context;
}

/**
 * One run per conversation of a batch of mem.message.stored (the deliveries `keep` accepts),
 * with the first delivery's trace; a run that fails retries only its own conversation's
 * deliveries. Runs go one after another: a due run holds an advisory-lock connection across
 * Gerty's answers, and a batch's runs all at once would take every one the process has. Each run's
 * deliveries are settled as soon as it ends, not with the batch: a batch of many conversations
 * takes long, and its consumer's ack floor keeps moving meanwhile.
 */
export async function runPerConversation(
  deliveries: readonly Delivery<MessageStored>[],
  keep: (d: Delivery<MessageStored>) => boolean,
  run: (trigger: ConversationTrigger) => Promise<void>,
): Promise<void> {
  const groups = new Map<string, Delivery<MessageStored>[]>();
  for (const d of deliveries) {
    if (!keep(d)) continue;
    const key = `${tenantOfSubject(d.subject)}/${d.message.conversationId}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const runGroup = async (group: Delivery<MessageStored>[]) => {
    const first = group[0]!;
    try {
      await run({
        tenantId: tenantOfSubject(first.subject),
        conversationId: first.message.conversationId,
        traceContext: first.traceContext,
      });
    } catch (error) {
      for (const d of group) d.retryAfter(error);
    }
    await Promise.all(group.map((d) => d.finish()));
  };
  for (const group of groups.values()) await runGroup(group);
}
