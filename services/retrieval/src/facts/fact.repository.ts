import { Injectable } from '@nestjs/common';
import type { FactCategory, FactLifetime } from '@engram/memory-core';
import { insertFact, type EntityManager } from '@engram/store';

/** A fact as memory_save, memory_forget and mem.rpc.facts.update see it. */
export interface FactRow {
  readonly id: string;
  readonly agent: string;
  readonly category: FactCategory;
  readonly conversationId: string | null;
  readonly validTo: Date | null;
  readonly expiresAt: Date | null;
  readonly supersededBy: string | null;
}

export interface NewSavedFact {
  readonly agent: string;
  readonly content: string;
  readonly category: FactCategory;
  readonly lifetime: FactLifetime;
  readonly importance: number;
  readonly originKey: string;
  readonly conversationId: string | null;
  readonly sourceMessageIds: readonly string[];
  readonly validFrom: Date;
  readonly expiresAt: Date | null;
  readonly validTo?: Date | null;
  readonly createdAt?: Date | null;
  readonly metadata?: Record<string, unknown>;
  readonly saveKey?: string | null;
}

interface RawFact {
  id: string;
  agent: string;
  category: FactCategory;
  conversation_id: string | null;
  valid_to: Date | null;
  expires_at: Date | null;
  superseded_by: string | null;
}

const FACT_COLUMNS = 'id, agent, category, conversation_id, valid_to, expires_at, superseded_by';

const factOf = (r: RawFact): FactRow => ({
  id: String(r.id),
  agent: r.agent,
  category: r.category,
  conversationId: r.conversation_id === null ? null : String(r.conversation_id),
  validTo: r.valid_to,
  expiresAt: r.expires_at,
  supersededBy: r.superseded_by === null ? null : String(r.superseded_by),
});

/** Reads and writes of facts for memory_save, memory_forget and updates, in the caller's tenant transaction. */
@Injectable()
export class FactRepository {
  /** The transaction's time: what a saved fact is valid from, and a forgotten one valid to. */
  async now(manager: EntityManager): Promise<Date> {
    const rows: Array<{ now: Date }> = await manager.query('SELECT now() AS now');
    return rows[0]!.now;
  }

  async findConversation(
    manager: EntityManager,
    conversationId: string,
  ): Promise<{ id: string; agent: string } | null> {
    const rows: Array<{ id: string; agent: string }> = await manager.query(
      'SELECT id, agent FROM conversations WHERE id = $1',
      [conversationId],
    );
    return rows[0] ? { id: String(rows[0].id), agent: rows[0].agent } : null;
  }

  /** The messages among `ids` that exist (for this tenant), with their conversation and agent. */
  async findMessages(
    manager: EntityManager,
    ids: readonly string[],
  ): Promise<Array<{ id: string; conversationId: string; agent: string }>> {
    if (ids.length === 0) return [];
    const rows: Array<{ id: string; conversation_id: string; agent: string }> = await manager.query(
      'SELECT id, conversation_id, agent FROM messages WHERE id = ANY($1::bigint[])',
      [ids],
    );
    return rows.map((r) => ({ id: String(r.id), conversationId: String(r.conversation_id), agent: r.agent }));
  }

  async findByOriginKey(manager: EntityManager, originKey: string): Promise<FactRow | null> {
    const rows: RawFact[] = await manager.query(`SELECT ${FACT_COLUMNS} FROM facts WHERE origin_key = $1`, [
      originKey,
    ]);
    return rows[0] ? factOf(rows[0]) : null;
  }

  async findById(manager: EntityManager, factId: string): Promise<FactRow | null> {
    const rows: RawFact[] = await manager.query(`SELECT ${FACT_COLUMNS} FROM facts WHERE id = $1`, [factId]);
    return rows[0] ? factOf(rows[0]) : null;
  }

  insertSaved(manager: EntityManager, tenantId: string, fact: NewSavedFact): Promise<string> {
    return insertFact(manager, tenantId, { ...fact, origin: 'saved' });
  }

  /** A new version written by mem.rpc.facts.update (origin `updated`). */
  insertUpdated(manager: EntityManager, tenantId: string, fact: NewSavedFact): Promise<string> {
    return insertFact(manager, tenantId, { ...fact, origin: 'updated' });
  }

  /**
   * Closes an open fact now in favour of the version that replaces it, keeping the reason;
   * false when it was closed already (a concurrent writer came first).
   */
  async supersede(
    manager: EntityManager,
    factId: string,
    newerId: string,
    reason: string | null,
  ): Promise<boolean> {
    const closed: Array<{ id: string }> = await manager.query(
      `WITH closed AS (
         UPDATE facts SET valid_to = now(), superseded_by = $2, forget_reason = $3, updated_at = now()
          WHERE id = $1 AND valid_to IS NULL
          RETURNING id
       )
       SELECT * FROM closed`,
      [factId, newerId, reason],
    );
    return closed.length === 1;
  }

  /**
   * Closes an open fact's validity now, keeping the row and the reason. Returns the fact
   * as it is afterwards; an already closed fact is left as it was.
   */
  async close(manager: EntityManager, factId: string, reason: string | null): Promise<FactRow | null> {
    // As a SELECT, so the driver answers rows (an UPDATE answers [rows, count]).
    const closed: RawFact[] = await manager.query(
      `WITH closed AS (
         UPDATE facts SET valid_to = now(), forget_reason = $2, updated_at = now()
          WHERE id = $1 AND valid_to IS NULL
          RETURNING ${FACT_COLUMNS}
       )
       SELECT * FROM closed`,
      [factId, reason],
    );
    return closed[0] ? factOf(closed[0]) : this.findById(manager, factId);
  }
}
