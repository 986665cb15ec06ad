import type { ItemKind } from '../ranking/candidate';

/**
 * What the in-memory index holds of each item, as the load statements (index-statements.ts)
 * read it from Postgres. Times are microseconds since the epoch (Postgres' own precision,
 * exact in a double), so the order of turns is the store's exactly. Lexemes are the item's
 * tsvector (`tsvector_to_array(tsv)`): Postgres' parser and the item's text-search configuration
 * (`language`) decide them, never the index.
 */
export interface MessageDoc {
  readonly id: string;
  readonly conversationId: string;
  readonly agent: string;
  readonly role: string;
  readonly author: string | null;
  readonly createdAtUs: number;
  readonly streamSeq: number;
  readonly position: number;
  readonly tokenEstimate: number;
  /** It ends with a question (`right(rtrim(content), 1) = '?'`). */
  readonly asks: boolean;
  /** The text-search configuration its lexemes were made with. */
  readonly language: string;
  readonly lexemes: readonly string[];
}

export interface SummarySource {
  readonly kind: 'message' | 'summary';
  readonly id: string;
  readonly ordinal: number;
}

export interface SummaryDoc {
  readonly id: string;
  readonly conversationId: string;
  readonly agent: string;
  readonly earliestAtUs: number;
  readonly latestAtUs: number;
  readonly tokenEstimate: number;
  /** The text-search configuration its lexemes were made with. */
  readonly language: string;
  readonly lexemes: readonly string[];
  readonly sources: readonly SummarySource[];
}

export interface FactDoc {
  readonly id: string;
  readonly conversationId: string | null;
  readonly agent: string;
  readonly validFromUs: number;
  readonly validToUs: number | null;
  readonly expiresAtUs: number | null;
  readonly importance: number;
  /** Its length in tokens as search counts it: greatest(1, characters / 4). */
  readonly length: number;
  /** The text-search configuration its lexemes were made with. */
  readonly language: string;
  readonly lexemes: readonly string[];
  readonly sourceMessageIds: readonly string[];
}

export interface ConversationDoc {
  readonly id: string;
  readonly channel: string | null;
}

export interface VectorDoc {
  readonly kind: ItemKind;
  readonly id: string;
  readonly model: string;
  readonly vector: Float32Array;
}

export interface AccessDoc {
  readonly kind: ItemKind;
  readonly id: string;
  readonly count: number;
  readonly lastAccessedAtUs: number;
}

/** A tenant's memory as loaded in one go. */
export interface TenantSnapshot {
  readonly conversations: readonly ConversationDoc[];
  readonly messages: readonly MessageDoc[];
  readonly summaries: readonly SummaryDoc[];
  readonly facts: readonly FactDoc[];
  readonly vectors: readonly VectorDoc[];
  readonly access: readonly AccessDoc[];
}
