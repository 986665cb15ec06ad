import { LINE_OVERHEAD_TOKENS, summaryBudget, type SummaryTreePolicy } from './summary-tree-policy';

/** An unsummarised message, in conversation order, as batching sees it. */
export interface PendingMessage {
  readonly id: string;
  readonly tokens: number;
}

/**
 * The leaves to write now: consecutive batches of the oldest pending messages, each cut
 * when it holds `leafMessages` messages or the next message would pass `leafTokens` (or
 * the model's window). A batch is written only when it is full, i.e. when the messages
 * pending passed a threshold (count or tokens); the rest waits for more. A message too
 * large for any batch gets a leaf of its own, whole.
 */
export function leafBatches<T extends PendingMessage>(
  pending: readonly T[],
  policy: SummaryTreePolicy,
): T[][] {
  const tokenLimit = Math.min(policy.leafTokens, summaryBudget(policy, 0).inputTokens);
  const batches: T[][] = [];
  let batch: T[] = [];
  let tokens = 0;
  for (const message of pending) {
    const cost = message.tokens + LINE_OVERHEAD_TOKENS;
    if (batch.length > 0 && tokens + cost > tokenLimit) {
      batches.push(batch);
      batch = [];
      tokens = 0;
    }
    batch.push(message);
    tokens += cost;
    if (batch.length >= policy.leafMessages || tokens >= tokenLimit) {
      batches.push(batch);
      batch = [];
      tokens = 0;
    }
  }
  // What is left never reached a threshold: it waits.
  return batches;
}
