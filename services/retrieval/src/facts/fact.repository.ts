import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@engram/store';

/**
 * What memory_save, memory_forget and updates read besides facts (whose reads and writes are
 * libs/store's: findFact, insertFact, supersedeFact …), in the caller's tenant transaction.
 */
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
      'SELECT id::text, agent FROM conversations WHERE id = $1',
      [conversationId],
    );
    return rows[0] ?? null;
  }

  /** The messages among `ids` that exist (for this tenant), with their conversation and agent. */
  async findMessages(
    manager: EntityManager,
    ids: readonly string[],
  ): Promise<Array<{ id: string; conversationId: string; agent: string }>> {
    if (ids.length === 0) return [];
    return manager.query(
      'SELECT id::text, conversation_id::text AS "conversationId", agent FROM messages WHERE id = ANY($1::bigint[])',
      [ids],
    );
  }
}
