import type { EntityManager } from 'typeorm';
import { factColumns, type FactRow } from '../rows/fact.row';
import { factOpen } from './fact-rules';

/*
 * Every write of `facts` (ingest's [MEMORY:] tags, the compactor's extraction, retrieval's save,
 * update and forget, and through them the mem0 API) is one of these, in the caller's tenant
 * transaction, which holds the agent's fact-writers lock (lockFactWriters). A fact is never
 * deleted here: it is closed (superseded or forgotten) and kept as history; only erase removes it.
 */

/** A new fact row: who said it, what, how long it lives, where it came from (FactRow's own fields). */
export interface NewFact extends Pick<
  FactRow,
  | 'agent'
  | 'content'
  | 'category'
  | 'lifetime'
  | 'importance'
  | 'origin'
  | 'originKey'
  | 'conversationId'
  | 'sourceMessageIds'
  | 'validFrom'
  | 'expiresAt'
> {
  /** A fact brought from elsewhere: stored already closed at this time. */
  readonly validTo?: Date | null;
  /** When it was created, if not now: an imported fact's own time. */
  readonly createdAt?: Date | null;
  /** The caller's JSON object ({} for none). */
  readonly metadata?: Record<string, unknown>;
  /** The idempotency key it was saved with, carried by every version. */
  readonly saveKey?: string | null;
}

/** What a fact said again changes: its latest wording, category and importance, its new sources and expiry. */
export type RestatedFact = Pick<
  NewFact,
  'content' | 'category' | 'importance' | 'sourceMessageIds' | 'expiresAt'
>;

const INSERT = `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key,
                        conversation_id, source_message_ids, valid_from, expires_at,
                        valid_to, created_at, updated_at, metadata, save_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::bigint[], $11, $12,
             $13, coalesce($14, now()), coalesce($15, now()), $16::jsonb, $17)`;

/** The parameters of INSERT for one fact. */
function insertParams(tenantId: string, fact: NewFact): unknown[] {
  return [
    tenantId,
    fact.agent,
    fact.content,
    fact.category,
    fact.lifetime,
    fact.importance,
    fact.origin,
    fact.originKey,
    fact.conversationId,
    fact.sourceMessageIds,
    fact.validFrom.toISOString(),
    fact.expiresAt?.toISOString() ?? null,
    fact.validTo?.toISOString() ?? null,
    fact.createdAt?.toISOString() ?? null,
    (fact.validTo ?? fact.createdAt)?.toISOString() ?? null,
    JSON.stringify(fact.metadata ?? {}),
    fact.saveKey ?? null,
  ];
}

/** Inserts a fact; returns its id. Its origin key must be new (the caller looked it up). */
export async function insertFact(manager: EntityManager, tenantId: string, fact: NewFact): Promise<string> {
  const rows: Array<{ id: string }> = await manager.query(
    `${INSERT} RETURNING id::text`,
    insertParams(tenantId, fact),
  );
  return rows[0]!.id;
}

/** Inserts a fact unless its origin key was written already (a redelivery); its id, or null then. */
export async function insertFactOnce(
  manager: EntityManager,
  tenantId: string,
  fact: NewFact,
): Promise<string | null> {
  const rows: Array<{ id: string }> = await manager.query(
    `${INSERT} ON CONFLICT (tenant_id, origin_key) DO NOTHING RETURNING id::text`,
    insertParams(tenantId, fact),
  );
  return rows[0]?.id ?? null;
}

/**
 * Closes an open fact in favour of `newerId`, the version that replaces it: valid to `at` (now
 * when null; never before it began), keeping the reason. False when it was closed already (a
 * concurrent writer came first); a closed fact stays as it was.
 */
export async function supersedeFact(
  manager: EntityManager,
  factId: string,
  newerId: string,
  close: { readonly at?: Date | null; readonly reason?: string | null } = {},
): Promise<boolean> {
  // As a SELECT, so the driver answers rows (an UPDATE answers [rows, count]).
  const closed: Array<{ id: string }> = await manager.query(
    `WITH closed AS (
       UPDATE facts f SET valid_to = greatest(f.valid_from, coalesce($3::timestamptz, now())), superseded_by = $2,
                          forget_reason = $4, updated_at = now()
        WHERE f.id = $1 AND ${factOpen('f')}
        RETURNING f.id
     )
     SELECT * FROM closed`,
    [factId, newerId, close.at?.toISOString() ?? null, close.reason ?? null],
  );
  return closed.length === 1;
}

/**
 * Forgets an open fact: its validity closed now, the row and the reason kept. Answers the fact as
 * it is afterwards (an already closed one as it was); null for an unknown id.
 */
export async function forgetFact(
  manager: EntityManager,
  factId: string,
  reason: string | null,
): Promise<FactRow | null> {
  const closed: FactRow[] = await manager.query(
    `WITH closed AS (
       UPDATE facts f SET valid_to = now(), forget_reason = $2, updated_at = now()
        WHERE f.id = $1 AND ${factOpen('f')}
        RETURNING f.*
     )
     SELECT ${factColumns('c')} FROM closed c
     UNION ALL
     SELECT ${factColumns('f')} FROM facts f WHERE f.id = $1 AND NOT EXISTS (SELECT FROM closed)`,
    [factId, reason],
  );
  return closed[0] ?? null;
}

/** A fact stated again lives on from this statement (a sticky fact has nothing to renew). */
export async function renewFact(manager: EntityManager, factId: string, expiresAt: Date): Promise<void> {
  await manager.query(
    `UPDATE facts SET expires_at = greatest(expires_at, $2), updated_at = now()
      WHERE id = $1 AND expires_at IS NOT NULL`,
    [factId, expiresAt.toISOString()],
  );
}

/**
 * The same fact said again, in other words: its wording, category and importance become the
 * latest, its sources gain the new ones, it lives on (renewed as renewFact does); created_at and
 * valid_from stay.
 */
export async function restateFact(manager: EntityManager, factId: string, fact: RestatedFact): Promise<void> {
  await manager.query(
    `UPDATE facts
        SET content = $2, category = $3, importance = $4,
            source_message_ids = ARRAY(SELECT DISTINCT unnest(source_message_ids || $5::bigint[]) ORDER BY 1),
            expires_at = CASE WHEN expires_at IS NULL OR $6::timestamptz IS NULL THEN expires_at ELSE greatest(expires_at, $6::timestamptz) END,
            updated_at = now()
      WHERE id = $1`,
    [
      factId,
      fact.content,
      fact.category,
      fact.importance,
      fact.sourceMessageIds,
      fact.expiresAt?.toISOString() ?? null,
    ],
  );
}
