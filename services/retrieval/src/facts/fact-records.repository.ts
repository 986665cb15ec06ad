import { Injectable } from '@nestjs/common';
import type { FactCategory, FactLifetime } from '@engram/memory-core';
import type { JsonObject } from '@bufbuild/protobuf';
import type { EntityManager } from '@engram/store';

/** A fact row whole, as mem.rpc.facts.* answer it. */
export interface FactRecord {
  readonly id: string;
  readonly agent: string;
  readonly content: string;
  readonly category: FactCategory;
  readonly lifetime: FactLifetime;
  readonly importance: number;
  readonly origin: string;
  readonly originKey: string;
  readonly conversationId: string | null;
  readonly sourceMessageIds: readonly string[];
  readonly validFrom: Date;
  readonly validTo: Date | null;
  readonly supersededBy: string | null;
  readonly forgetReason: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly expiresAt: Date | null;
  readonly accessCount: number;
  readonly lastAccessedAt: Date | null;
  /** The first version of its supersession chain (its own id when it supersedes nothing). */
  readonly firstId: string;
  /** The caller's JSON object ({} for none). */
  readonly metadata: JsonObject;
  /** The idempotency key the chain was saved with; null for none. */
  readonly saveKey: string | null;
}

/** Which facts a list asks for; empty lists and nulls restrict nothing. */
export interface FactFilter {
  readonly agents: readonly string[];
  readonly categories: readonly string[];
  readonly conversationId: string | null;
  /** Also superseded, forgotten and expired facts. */
  readonly includeClosed: boolean;
  readonly from: Date | null;
  readonly to: Date | null;
  /** Whose metadata contains this object; null for any. */
  readonly metadata: JsonObject | null;
  /** These facts only; empty for any. */
  readonly ids: readonly string[];
}

interface RawFact {
  id: string;
  agent: string;
  content: string;
  category: FactCategory;
  lifetime: FactLifetime;
  importance: number;
  origin: string;
  origin_key: string;
  conversation_id: string | null;
  source_message_ids: string[];
  valid_from: Date;
  valid_to: Date | null;
  superseded_by: string | null;
  forget_reason: string | null;
  created_at: Date;
  updated_at: Date;
  expires_at: Date | null;
  access_count: number;
  last_accessed_at: Date | null;
  metadata: JsonObject;
  save_key: string | null;
}

/** Every column a Fact carries, with its access statistics (kept apart, in item_access). */
const SELECT_FACTS = `
  SELECT f.id::text, f.agent, f.content, f.category, f.lifetime, f.importance, f.origin, f.origin_key,
         f.conversation_id::text, f.source_message_ids::text[] AS source_message_ids,
         f.valid_from, f.valid_to, f.superseded_by::text, f.forget_reason,
         f.created_at, f.updated_at, f.expires_at,
         coalesce(a.access_count, 0) AS access_count, a.last_accessed_at, f.metadata, f.save_key
    FROM facts f
    LEFT JOIN item_access a ON a.item_kind = 'fact' AND a.item_id = f.id`;

/** The same condition memory_search serves facts under: open and not expired. */
const IN_FORCE = 'f.valid_to IS NULL AND (f.expires_at IS NULL OR f.expires_at > now())';

/** The WHERE clause of a filter, with its parameters numbered from 1. */
function whereOf(filter: FactFilter): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (!filter.includeClosed) conditions.push(IN_FORCE);
  if (filter.ids.length > 0) conditions.push(`f.id = ANY(${param(filter.ids)}::bigint[])`);
  if (filter.agents.length > 0) conditions.push(`f.agent = ANY(${param(filter.agents)}::text[])`);
  if (filter.categories.length > 0) conditions.push(`f.category = ANY(${param(filter.categories)}::text[])`);
  if (filter.conversationId !== null) conditions.push(`f.conversation_id = ${param(filter.conversationId)}`);
  if (filter.from !== null) conditions.push(`f.created_at >= ${param(filter.from.toISOString())}`);
  if (filter.to !== null) conditions.push(`f.created_at < ${param(filter.to.toISOString())}`);
  // Stating the partial index's predicate lets the planner use it (facts_metadata).
  if (filter.metadata !== null && Object.keys(filter.metadata).length > 0)
    conditions.push(
      `f.metadata <> '{}'::jsonb AND f.metadata @> ${param(JSON.stringify(filter.metadata))}::jsonb`,
    );
  return { where: conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

/** Reads of whole facts and their supersession chains, in the caller's tenant transaction. */
@Injectable()
export class FactRecordsRepository {
  /** A page of the facts matching `filter`, newest first, and how many match in all. */
  async list(
    manager: EntityManager,
    filter: FactFilter,
    page: { limit: number; offset: number },
  ): Promise<{ facts: FactRecord[]; total: number }> {
    const { where, params } = whereOf(filter);
    const [{ total }]: Array<{ total: string }> = await manager.query(
      `SELECT count(*) AS total FROM facts f ${where}`,
      params,
    );
    const rows: RawFact[] = await manager.query(
      `${SELECT_FACTS} ${where}
        ORDER BY f.created_at DESC, f.id DESC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    );
    return { facts: await this.withFirstIds(manager, rows), total: Number(total) };
  }

  async get(manager: EntityManager, factId: string): Promise<FactRecord | null> {
    const rows: RawFact[] = await manager.query(`${SELECT_FACTS} WHERE f.id = $1`, [factId]);
    return (await this.withFirstIds(manager, rows))[0] ?? null;
  }

  /**
   * The supersession chain `factId` belongs to, oldest version first: back to the version
   * nothing superseded, then forward along superseded_by to the last. Empty for an unknown id.
   */
  async chain(manager: EntityManager, factId: string): Promise<FactRecord[]> {
    const firstIds = await this.firstIdsOf(manager, [factId]);
    const first = firstIds.get(factId);
    if (first === undefined) return [];
    const rows: RawFact[] = await manager.query(
      `WITH RECURSIVE chain (id, step) AS (
         SELECT id, 0 FROM facts WHERE id = $1
         UNION ALL
         SELECT f.superseded_by, c.step + 1 FROM chain c JOIN facts f ON f.id = c.id WHERE f.superseded_by IS NOT NULL
       )
       ${SELECT_FACTS} JOIN chain c ON c.id = f.id ORDER BY c.step`,
      [first],
    );
    return rows.map((r) => factRecord(r, first));
  }

  private async withFirstIds(manager: EntityManager, rows: RawFact[]): Promise<FactRecord[]> {
    if (rows.length === 0) return [];
    const firstIds = await this.firstIdsOf(
      manager,
      rows.map((r) => r.id),
    );
    return rows.map((r) => factRecord(r, firstIds.get(r.id) ?? r.id));
  }

  /**
   * Each existing fact's first version: walks superseded_by backwards (a version is superseded
   * by a later, larger id, so the walk ends), keeping the deepest step per fact.
   */
  private async firstIdsOf(manager: EntityManager, factIds: readonly string[]): Promise<Map<string, string>> {
    const rows: Array<{ fact_id: string; first_id: string }> = await manager.query(
      `WITH RECURSIVE back (fact_id, first_id, step) AS (
         SELECT id, id, 0 FROM facts WHERE id = ANY($1::bigint[])
         UNION ALL
         SELECT b.fact_id, p.id, b.step + 1 FROM back b JOIN facts p ON p.superseded_by = b.first_id
       )
       SELECT DISTINCT ON (fact_id) fact_id::text, first_id::text FROM back ORDER BY fact_id, step DESC`,
      [factIds],
    );
    return new Map(rows.map((r) => [r.fact_id, r.first_id]));
  }
}

function factRecord(r: RawFact, firstId: string): FactRecord {
  return {
    id: r.id,
    agent: r.agent,
    content: r.content,
    category: r.category,
    lifetime: r.lifetime,
    importance: Number(r.importance),
    origin: r.origin,
    originKey: r.origin_key,
    conversationId: r.conversation_id,
    sourceMessageIds: r.source_message_ids,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    supersededBy: r.superseded_by,
    forgetReason: r.forget_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    expiresAt: r.expires_at,
    accessCount: Number(r.access_count),
    lastAccessedAt: r.last_accessed_at,
    firstId,
    metadata: r.metadata,
    saveKey: r.save_key,
  };
}
