import type { EntityManager } from 'typeorm';
import { anyWordQuery, type OpenFact } from '@engram/memory-core';
import { factColumns, type FactRow } from '../rows/fact.row';
import { factInForce } from './fact-rules';

/** The fact `factId` of the transaction's tenant; null for an unknown id (or another tenant's). */
export async function findFact(manager: EntityManager, factId: string): Promise<FactRow | null> {
  const rows: FactRow[] = await manager.query(`SELECT ${factColumns('f')} FROM facts f WHERE f.id = $1`, [
    factId,
  ]);
  return rows[0] ?? null;
}

/** The fact written under this natural key (origin_key, unique per tenant); null when none was. */
export async function findFactByOriginKey(
  manager: EntityManager,
  originKey: string,
): Promise<FactRow | null> {
  return (await findFactsByOriginKeys(manager, [originKey]))[0] ?? null;
}

/** The facts written under any of these natural keys, in no particular order. */
export async function findFactsByOriginKeys(
  manager: EntityManager,
  originKeys: readonly string[],
): Promise<FactRow[]> {
  if (originKeys.length === 0) return [];
  return manager.query(`SELECT ${factColumns('f')} FROM facts f WHERE f.origin_key = ANY($1::text[])`, [
    originKeys,
  ]);
}

/**
 * Open facts of the agent, not expired at `inForceAt` (in force then, by factInForce), that share
 * a word with one of the candidates (stemmed with each fact's own text-search configuration):
 * what overlap dedup compares new facts with. Most recently updated first, at most 1,000. In the
 * caller's tenant transaction.
 */
export async function openFactsSharingWords(
  manager: EntityManager,
  agent: string,
  candidates: readonly string[],
  inForceAt: Date,
): Promise<OpenFact[]> {
  const query = anyWordQuery(candidates);
  if (query === null) return [];
  const rows: Array<{ id: string; content: string; expires_at: Date | null }> = await manager.query(
    `WITH queries AS (
       SELECT l AS language, to_tsquery(l, $2) AS query
         FROM tenants t CROSS JOIN unnest(t.languages) l WHERE t.tenant_id = engram_current_tenant()
     )
     SELECT f.id, f.content, f.expires_at FROM facts f JOIN queries q ON q.language = f.language
      WHERE f.agent = $1 AND ${factInForce('f', '$3')} AND f.tsv @@ q.query
      ORDER BY f.updated_at DESC LIMIT 1000`,
    [agent, query, inForceAt.toISOString()],
  );
  return rows.map((r) => ({ id: String(r.id), content: r.content, expiresAt: r.expires_at }));
}
