import type { EntityManager } from 'typeorm';
import type { FactCategory, FactLifetime } from '@engram/memory-core';

/** A new fact row: who said it, what, how long it lives, where it came from. */
export interface NewFact {
  readonly agent: string;
  readonly content: string;
  readonly category: FactCategory;
  readonly lifetime: FactLifetime;
  readonly importance: number;
  /** 'saved' (memory_save), 'extracted' (the compactor) … */
  readonly origin: string;
  /** Unique per tenant: a retried write finds its fact by it. */
  readonly originKey: string;
  readonly conversationId: string | null;
  readonly sourceMessageIds: readonly string[];
  readonly validFrom: Date;
  readonly expiresAt: Date | null;
  /** A fact brought from elsewhere: stored already closed at this time. */
  readonly validTo?: Date | null;
  /** When it was created, if not now: an imported fact's own time. */
  readonly createdAt?: Date | null;
  /** The caller's JSON object ({} for none). */
  readonly metadata?: Record<string, unknown>;
  /** The idempotency key it was saved with, carried by every version. */
  readonly saveKey?: string | null;
}

/** Inserts a fact in the caller's tenant transaction; returns its id. */
export async function insertFact(manager: EntityManager, tenantId: string, fact: NewFact): Promise<string> {
  const rows: Array<{ id: string }> = await manager.query(
    `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key,
                        conversation_id, source_message_ids, valid_from, expires_at,
                        valid_to, created_at, updated_at, metadata, save_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::bigint[], $11, $12,
             $13, coalesce($14, now()), coalesce($15, now()), $16::jsonb, $17)
     RETURNING id::text`,
    [
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
    ],
  );
  return rows[0]!.id;
}
