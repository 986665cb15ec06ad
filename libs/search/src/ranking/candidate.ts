import type { ItemKind } from '@engram/contracts';

export { ITEM_KINDS, type ItemKind } from '@engram/contracts';

/** A message, summary or fact that may answer a query, with what ranking needs to know of it. */
export interface Candidate {
  readonly kind: ItemKind;
  readonly id: string;
  /** A message's role ("user", "assistant" …); null for summaries and facts. */
  readonly role: string | null;
  /** Its conversation (null for a fact said outside one). */
  readonly conversationId: string | null;
  readonly author: string | null;
  readonly createdAt: Date;
  readonly lastAccessedAt: Date | null;
  readonly accessCount: number;
  /** Length in tokens. */
  readonly length: number;
  /** Bit i is set when the item contains query term i. */
  readonly matched: number;
  /** Cosine similarity with the query's vector; null when either has none. */
  readonly cosine: number | null;
  /** It ends with a question. */
  readonly asks: boolean;
  /** A fact's importance, 1–10. */
  readonly importance: number | null;
  /** Set in trigram and regex modes: the match's own strength (0–1), used instead of BM25. */
  readonly lexicalScore?: number;
  /** It passes the request's filters; other candidates only lend their words to their neighbours. */
  readonly eligible: boolean;
  /** For messages whose surroundings were read: the ids two and one before, and one and two after. */
  readonly neighbours?: readonly [string | null, string | null, string | null, string | null];
}

export const candidateKey = (kind: ItemKind, id: string): string => `${kind}:${id}`;
