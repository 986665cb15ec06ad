import { Injectable } from '@nestjs/common';
import type { JsonObject } from '@bufbuild/protobuf';
import { factColumns, factInForce, type EntityManager, type FactRow } from '@engram/store';

/** A fact row whole, as mem.rpc.facts.* answer it: the row, its access statistics and its chain's first version. */
export interface FactRecord extends Omit<FactRow, 'metadata'> {
  readonly accessCount: number;
  readonly lastAccessedAt: Date | null;
  /** The first version of its supersession chain (its own id when it supersedes nothing). */
  readonly firstId: string;
  /** The caller's JSON object ({} for none). */
  readonly metadata: JsonObject;
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

/** A fact row as SELECT_FACTS reads it: the row, and its access statistics (kept apart, in item_access). */
type ReadFact = Omit<FactRecord, 'firstId'>;

const SELECT_FACTS = `
  SELECT ${factColumns('f')}, coalesce(a.access_count, 0) AS "accessCount", a.last_accessed_at AS "lastAccessedAt"
    FROM facts f
    LEFT JOIN item_access a ON a.item_kind = 'fact' AND a.item_id = f.id`;

/** The WHERE clause of a filter, with its parameters numbered from 1. */
function whereOf(filter: FactFilter): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (!filter.includeClosed) conditions.push(factInForce('f'));
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
    const rows: ReadFact[] = await manager.query(
      `${SELECT_FACTS} ${where}
        ORDER BY f.created_at DESC, f.id DESC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    );
    return { facts: await this.withFirstIds(manager, rows), total: Number(total) };
  }

  async get(manager: EntityManager, factId: string): Promise<FactRecord | null> {
    const rows: ReadFact[] = await manager.query(`${SELECT_FACTS} WHERE f.id = $1`, [factId]);
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
    const rows: ReadFact[] = await manager.query(
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

  private async withFirstIds(manager: EntityManager, rows: ReadFact[]): Promise<FactRecord[]> {
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

/** A fact read, with its chain's first version. */
function factRecord(r: ReadFact, firstId: string): FactRecord {
  return { ...r, importance: Number(r.importance), accessCount: Number(r.accessCount), firstId };
}
