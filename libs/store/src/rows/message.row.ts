import type { MessageRole } from '@engram/memory-core';

/** A row of `messages`, the immutable transcript (a trigger refuses changes to what was said). bigint ids are strings. */
export interface MessageRow {
  readonly id: string;
  readonly tenantId: string;
  readonly conversationId: string;
  readonly agent: string;
  readonly turnId: string;
  readonly position: number;
  /** bigint: a string. */
  readonly streamSeq: string;
  readonly role: MessageRole;
  readonly author: string | null;
  /** What users see (memory tags removed). */
  readonly content: string;
  /** As published, when it differs from content. */
  readonly rawContent: string | null;
  readonly contentSynthesised: boolean;
  readonly toolName: string | null;
  readonly toolCallId: string | null;
  readonly toolArgs: unknown;
  readonly toolResult: unknown;
  readonly metadata: Record<string, unknown>;
  readonly tokenEstimate: number;
  /** The text-search configuration it was indexed with: its conversation's language. */
  readonly language: string;
  readonly createdAt: Date;
  readonly ingestedAt: Date;
  /** Set by session compaction; the message is never removed. */
  readonly compactedAt: Date | null;
  /** Set as the compactor links it to its leaf summary. */
  readonly summarisedAt: Date | null;
}
