import type { Candidate, ItemKind } from '../ranking/candidate';

/** Rows of the plan's statements (search-plan.ts), as Postgres returns them. */

export interface TermRow {
  readonly lexeme: string | null;
  readonly words: string[] | null;
  readonly documents: string;
  readonly average_length: number;
  readonly known: boolean;
}

export interface TermFrequencyRow {
  readonly term: number;
  readonly df: number;
  /** Messages within the request's filters that contain the term (as capped as df); null without filters. */
  readonly scoped_df: number | null;
}

export interface CandidateRow {
  readonly kind: ItemKind;
  readonly id: string;
  readonly conversation_id: string | null;
  readonly role: string | null;
  readonly author: string | null;
  readonly created_at: Date;
  readonly length: number;
  readonly matched: number;
  readonly cosine: number | null;
  readonly asks: boolean;
  readonly importance: number | null;
  readonly access_count: number | null;
  readonly last_accessed_at: Date | null;
  readonly lexical_score: number | null;
  readonly eligible: boolean;
}

export interface NeighbourRow extends CandidateRow {
  readonly seed: string;
  readonly offset: number;
}

export interface ItemRow {
  readonly kind: ItemKind;
  readonly id: string;
  readonly content: string;
  readonly agent: string;
  readonly conversation_id: string | null;
  readonly channel: string | null;
  readonly role: string | null;
  readonly author: string | null;
  readonly created_at: Date;
  readonly depth: number | null;
  readonly source_message_ids: string[] | null;
  readonly last_accessed_at: Date | null;
}

export interface ExpansionRow {
  readonly parent_kind: 'summary' | 'fact';
  readonly parent_id: string;
  readonly kind: ItemKind;
  readonly id: string;
  readonly level: number;
  readonly created_at: Date;
  readonly matched: number;
}

/**
 * A candidate row as ranking reads it. As of a moment (`asOf`), a last access after it was not
 * known then, nor how many of the accesses came before it: the item counts as never accessed,
 * its recency from its own time.
 */
export function toCandidate(r: CandidateRow, asOf?: Date): Candidate {
  const unknownThen = asOf !== undefined && r.last_accessed_at !== null && r.last_accessed_at > asOf;
  const candidate: Candidate = {
    kind: r.kind,
    id: String(r.id),
    role: r.role,
    conversationId: r.conversation_id === null ? null : String(r.conversation_id),
    author: r.author,
    createdAt: r.created_at,
    lastAccessedAt: unknownThen ? null : r.last_accessed_at,
    accessCount: unknownThen ? 0 : (r.access_count ?? 0),
    length: Number(r.length) || 1,
    matched: Number(r.matched) || 0,
    cosine: r.cosine === null ? null : Number(r.cosine),
    asks: r.asks,
    importance: r.importance,
    eligible: r.eligible,
  };
  // Set only when there is one (an object spread here cost more than the rest of the mapping).
  if (r.lexical_score !== null) return { ...candidate, lexicalScore: Number(r.lexical_score) };
  return candidate;
}
