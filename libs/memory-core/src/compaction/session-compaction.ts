import { LINE_OVERHEAD_TOKENS } from '../summaries/summary-tree-policy';
import type { ModelWindowOverrides } from '../models/model-windows';

/** When a conversation's transcript is compacted, as shares of its model's context window. */
export interface SessionCompactionPolicy {
  /** Compact when the uncompacted messages hold more than this share of the window (0.75). */
  readonly triggerShare: number;
  /** Compact the oldest until the uncompacted rest holds at most this share (0.40). */
  readonly keepShare: number;
  /** The newest this many messages are never compacted (10). */
  readonly keepMessages: number;
  /**
   * A step compacts at most this many messages (240): a longer way down to `keepShare` (a
   * backlog, a large window) is gone in several steps, so no run holds its work for minutes.
   */
  readonly stepMessages: number;
  /** Windows the deployment sets over the built-in table (MODEL_WINDOWS): the shares above are of these. */
  readonly modelWindows: ModelWindowOverrides;
}

export const DEFAULT_SESSION_COMPACTION_POLICY: SessionCompactionPolicy = {
  triggerShare: 0.75,
  keepShare: 0.4,
  keepMessages: 10,
  stepMessages: 240,
  modelWindows: {},
};

/** An uncompacted message, in the transcript's order, as the policy sees it. */
export interface UncompactedMessage {
  readonly id: string;
  readonly tokens: number;
}

export interface SessionCompactionStep<T extends UncompactedMessage> {
  /** The oldest messages to compact now, in order (never empty). */
  readonly messages: readonly T[];
  /** Their token estimate. */
  readonly compactedTokens: number;
  /** What stays uncompacted afterwards. */
  readonly remainingTokens: number;
  /** It stopped at `stepMessages` above `keepShare`: the conversation's next step follows, due or not. */
  readonly cutShort: boolean;
}

/** Token estimate of messages. */
export function tokensOf(messages: readonly UncompactedMessage[]): number {
  return messages.reduce((n, m) => n + m.tokens, 0);
}

/**
 * True when uncompacted messages of this many tokens pass the trigger for a window of this
 * size, or, `continuing` a step that was cut short, are still above `keepShare` of it.
 */
export function compactionDue(
  uncompactedTokens: number,
  windowTokens: number,
  policy: SessionCompactionPolicy,
  continuing: boolean,
): boolean {
  return uncompactedTokens > windowTokens * (continuing ? policy.keepShare : policy.triggerShare);
}

/**
 * Whether a conversation is compacted now and which messages: when its uncompacted
 * messages (oldest first) hold more than `triggerShare` of the window (or `continuing` a
 * step cut short), its oldest ones until the rest holds at most `keepShare` of it, at most
 * `stepMessages` of them — but the newest `keepMessages` always stay, even if they alone
 * hold more. Null when nothing is due (or nothing may go).
 */
export function planSessionCompaction<T extends UncompactedMessage>(
  uncompacted: readonly T[],
  windowTokens: number,
  policy: SessionCompactionPolicy,
  continuing: boolean,
): SessionCompactionStep<T> | null {
  const total = tokensOf(uncompacted);
  if (!compactionDue(total, windowTokens, policy, continuing)) return null;
  const target = windowTokens * policy.keepShare;
  const compactable = Math.min(policy.stepMessages, Math.max(0, uncompacted.length - policy.keepMessages));
  let remaining = total;
  let take = 0;
  while (take < compactable && remaining > target) remaining -= uncompacted[take++]!.tokens;
  if (take === 0) return null;
  return {
    messages: uncompacted.slice(0, take),
    compactedTokens: total - remaining,
    remainingTokens: remaining,
    cutShort: take === policy.stepMessages && remaining > target,
  };
}

/**
 * Consecutive chunks of the compacted messages for the rolling summary: each chunk's
 * lines fit `inputTokens` beside the running summary (`carryTokens`), so every
 * summarise call fits the summarising model's window. A message larger than a chunk
 * gets a chunk of its own, whole (never cut).
 */
export function summaryChunks<T extends UncompactedMessage>(
  messages: readonly T[],
  inputTokens: number,
  carryTokens: number,
): T[][] {
  const limit = Math.max(LINE_OVERHEAD_TOKENS + 1, inputTokens - carryTokens - LINE_OVERHEAD_TOKENS);
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let tokens = 0;
  for (const message of messages) {
    const cost = message.tokens + LINE_OVERHEAD_TOKENS;
    if (chunk.length > 0 && tokens + cost > limit) {
      chunks.push(chunk);
      chunk = [];
      tokens = 0;
    }
    chunk.push(message);
    tokens += cost;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** Consecutive groups of at most `size` (fact extraction reads at most 15 messages at once). */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The key of one compaction step, `compaction-<conversation>-<last message>`: the store's
 * natural key of the step (a conversation's compaction is named by the newest message it
 * compacted), and the token facts extracted in it are keyed by, so a step re-run adds nothing.
 */
export function compactionStepKey(conversationId: string, lastMessageId: string): string {
  return `compaction-${conversationId}-${lastMessageId}`;
}

/** A message as turn fact coverage sees it: whether it is the last assistant message of its turn. */
export interface TurnEnd {
  readonly endsTurn: boolean;
}

/**
 * Of `messages` (a run of the transcript in its order), those no turn's fact extraction reads.
 * A turn with an assistant message has its facts extracted from the conversation's last
 * `window` messages up to its last assistant message, so a message is read when such a
 * message is it or follows it within `window` positions.
 */
export function unreadByTurns<T extends TurnEnd>(messages: readonly T[], window: number): T[] {
  const unread: T[] = [];
  let nextEnd = Infinity;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.endsTurn) nextEnd = i;
    if (nextEnd - i >= window) unread.push(messages[i]!);
  }
  return unread.reverse();
}
