import { Injectable } from '@nestjs/common';
import type { EraseScope } from '@engram/contracts';
import type { StreamsErased } from '@engram/messaging';
import type { EntityManager, ErasureRow } from '@engram/store';

/** Rows erased per kind, as `engram_erase` counts them. */
export type ErasedRows = Partial<
  Record<
    | 'conversations'
    | 'messages'
    | 'vectors'
    | 'summaries'
    | 'compactions'
    | 'facts'
    | 'stateEntries'
    | 'sceneNodes'
    | 'beingNotes'
    | 'beings',
    number
  >
>;

/** An audit entry of the table `erasures`. */
export interface Erasure {
  readonly id: string;
  readonly scope: EraseScope;
  /** The agent erased, or the erased conversation's (null when it was not found). */
  readonly agent: string | null;
  readonly conversationId: string | null;
  /** Kept until the streams are erased too. */
  readonly sessionKey: string | null;
  readonly counts: ErasedRows;
  readonly erasedAt: Date;
}

interface ErasedRow {
  erasure_id: string;
  erased_scope: EraseScope;
  erased_agent: string | null;
  erased_session_key: string | null;
  erased_counts: ErasedRows;
  erased_at: Date;
}

/** An entry as `unfinished` reads it. */
type UnfinishedEntry = Pick<ErasureRow, 'id' | 'scope' | 'agent' | 'conversation_id' | 'session_key'>;

/** The erasures of a tenant and `engram_erase`, in the caller's tenant transaction. */
@Injectable()
export class ErasureRepository {
  /** A conversation's agent and session key (what its turns in JetStream carry); null when it is not the tenant's. */
  async conversation(
    manager: EntityManager,
    conversationId: string,
  ): Promise<{ agent: string; sessionKey: string } | null> {
    const rows: Array<{ agent: string; session_key: string }> = await manager.query(
      `SELECT agent, session_key FROM conversations WHERE id = $1`,
      [conversationId],
    );
    return rows[0] ? { agent: rows[0].agent, sessionKey: rows[0].session_key } : null;
  }

  /** Erases the scope (a conversation, an agent, or with neither the tenant) and writes its audit entry. */
  async erase(
    manager: EntityManager,
    scope: { agent: string | null; conversationId: string | null },
    principal: string,
  ): Promise<Erasure> {
    const rows: ErasedRow[] = await manager.query(
      `SELECT erasure_id::text, erased_scope, erased_agent, erased_session_key, erased_counts, erased_at
         FROM engram_erase($1, $2, $3)`,
      [scope.agent, scope.conversationId, principal],
    );
    const row = rows[0]!;
    return {
      id: row.erasure_id,
      scope: row.erased_scope,
      agent: row.erased_agent,
      conversationId: scope.conversationId,
      sessionKey: row.erased_session_key,
      counts: row.erased_counts,
      erasedAt: row.erased_at,
    };
  }

  /** Entries whose streams are not erased yet (a crash came between the two), oldest first. */
  async unfinished(manager: EntityManager): Promise<Array<Omit<Erasure, 'counts' | 'erasedAt'>>> {
    const rows: UnfinishedEntry[] = await manager.query(
      `SELECT id::text, scope, agent, conversation_id::text, session_key
         FROM erasures WHERE streams_erased_at IS NULL ORDER BY id`,
    );
    return rows.map((r) => ({
      id: r.id,
      scope: r.scope,
      agent: r.agent,
      conversationId: r.conversation_id,
      sessionKey: r.session_key,
    }));
  }

  /** The entry's streams are erased: their counts join the entry, and the session key it kept goes. */
  async streamsErased(manager: EntityManager, id: string, erased: StreamsErased): Promise<void> {
    await manager.query(
      `UPDATE erasures SET counts = counts || $2::jsonb, session_key = NULL, streams_erased_at = now()
        WHERE id = $1`,
      [id, JSON.stringify(erased)],
    );
  }
}
