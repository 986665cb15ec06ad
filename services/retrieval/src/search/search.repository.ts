import { Injectable } from '@nestjs/common';
import {
  candidatesStatement,
  expansionStatement,
  itemsStatement,
  neighboursStatement,
  SEARCH_SETTINGS,
  termsStatement,
  type Candidate,
  type CandidatesInput,
  type ItemKind,
  type SearchScope,
  type Statement,
} from '@engram/search';
import type { EntityManager } from '@engram/store';

export interface TermRow {
  readonly lexeme: string | null;
  readonly words: string[] | null;
  readonly documents: string;
  readonly average_length: number;
  readonly df: number | null;
  readonly known: boolean;
}

interface CandidateRow {
  readonly kind: ItemKind;
  readonly id: string;
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

/** The statements of a search (libs/search/plan), run in the caller's tenant transaction. */
@Injectable()
export class SearchRepository {
  async prepare(manager: EntityManager): Promise<void> {
    await manager.query(SEARCH_SETTINGS);
  }

  terms(manager: EntityManager, tenantId: string, query: string): Promise<TermRow[]> {
    return run(manager, termsStatement(tenantId, query));
  }

  async candidates(manager: EntityManager, input: CandidatesInput): Promise<Candidate[]> {
    const rows = await run<CandidateRow>(manager, candidatesStatement(input));
    return rows.map(toCandidate);
  }

  async neighbours(manager: EntityManager, scope: SearchScope, seeds: readonly string[], terms: readonly string[], vector: readonly number[] | null, model: string | null) {
    if (seeds.length === 0) return [];
    const rows = await run<NeighbourRow>(manager, neighboursStatement(scope, seeds, terms, vector, model));
    return rows.map((r) => ({ seed: String(r.seed), offset: r.offset, candidate: toCandidate(r) }));
  }

  items(manager: EntityManager, tenantId: string, refs: Record<ItemKind, string[]>): Promise<ItemRow[]> {
    return run(manager, itemsStatement(tenantId, refs));
  }

  expansions(manager: EntityManager, tenantId: string, summaryIds: string[], factIds: string[], terms: readonly string[]): Promise<ExpansionRow[]> {
    if (summaryIds.length === 0 && factIds.length === 0) return Promise.resolve([]);
    return run(manager, expansionStatement(tenantId, summaryIds, factIds, terms));
  }
}

function run<T>(manager: EntityManager, statement: Statement): Promise<T[]> {
  return manager.query(statement.text, statement.values);
}

function toCandidate(r: CandidateRow): Candidate {
  return {
    kind: r.kind,
    id: String(r.id),
    author: r.author,
    createdAt: r.created_at,
    lastAccessedAt: r.last_accessed_at,
    accessCount: r.access_count ?? 0,
    length: Number(r.length) || 1,
    matched: Number(r.matched) || 0,
    cosine: r.cosine === null ? null : Number(r.cosine),
    asks: r.asks,
    importance: r.importance,
    eligible: r.eligible,
    ...(r.lexical_score !== null && { lexicalScore: Number(r.lexical_score) }),
  };
}
