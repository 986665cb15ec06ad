import type { EntityManager } from 'typeorm';
import { anyWordQuery, type OpenFact } from '@engram/memory-core';

/**
 * Open facts of the agent (validity not closed), in force at `inForceAt`, that share a
 * word with one of the candidates (stemmed with each fact's own text-search configuration):
 * what overlap dedup compares new facts with. Most recently updated first, at most 1,000. In
 * the caller's tenant transaction.
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
      WHERE f.agent = $1 AND f.valid_to IS NULL AND (f.expires_at IS NULL OR f.expires_at > $3)
        AND f.tsv @@ q.query
      ORDER BY f.updated_at DESC LIMIT 1000`,
    [agent, query, inForceAt.toISOString()],
  );
  return rows.map((r) => ({ id: String(r.id), content: r.content, expiresAt: r.expires_at }));
}

/** A fact stated again lives on from this statement (a sticky fact has nothing to renew). */
export async function renewFact(manager: EntityManager, factId: string, expiresAt: Date): Promise<void> {
  await manager.query(
    `UPDATE facts SET expires_at = greatest(expires_at, $2), updated_at = now()
      WHERE id = $1 AND expires_at IS NOT NULL`,
    [factId, expiresAt.toISOString()],
  );
}
