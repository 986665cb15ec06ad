import { Injectable } from '@nestjs/common';
import type { NoteKind } from '@engram/contracts';
import { TenantTransactions, type EntityManager, type NoteRow } from '@engram/store';
import { NOTE_COLUMNS, type StoredNote } from './being-note';
import type { SceneNoteRecord } from './scene-notes';

export interface NewNote {
  readonly kind: Exclude<NoteKind, 'scene'>;
  readonly content: string;
  readonly dueAt: Date | null;
}

export interface NotesQuery {
  /** Empty: every kind. */
  readonly kinds: readonly string[];
  readonly unreadOnly: boolean;
  readonly limit: number;
}

/**
 * A being's notes (table notes): scene notes for the patrol, and notes, TODOs, reminders,
 * knowledge. Writes run in the caller's tenant transaction (WriteBeingNotesUseCase); `list` is a
 * plain read in a transaction of its own.
 */
@Injectable()
export class BeingNotesRepository {
  constructor(private readonly transactions: TenantTransactions) {}

  /** Stores a scene note (parsed or not); answers its id. */
  async addScene(
    manager: EntityManager,
    tenantId: string,
    agent: string,
    note: SceneNoteRecord,
  ): Promise<string> {
    const rows: Array<Pick<NoteRow, 'id'>> = await manager.query(
      `INSERT INTO notes (tenant_id, agent, kind, content, scene, importance, themes, emotion, parse_failed)
       VALUES ($1, $2, 'scene', $3, $4::jsonb, $5, $6::text[], $7::jsonb, $8)
       RETURNING id::text AS id`,
      [
        tenantId,
        agent,
        note.content,
        note.scene && JSON.stringify(note.scene),
        note.importance,
        note.themes,
        note.emotion && JSON.stringify(note.emotion),
        note.parseFailed,
      ],
    );
    return rows[0]!.id;
  }

  async add(manager: EntityManager, tenantId: string, agent: string, note: NewNote): Promise<StoredNote> {
    const rows: StoredNote[] = await manager.query(
      `INSERT INTO notes (tenant_id, agent, kind, content, due_at) VALUES ($1, $2, $3, $4, $5)
       RETURNING ${NOTE_COLUMNS}`,
      [tenantId, agent, note.kind, note.content, note.dueAt],
    );
    return rows[0]!;
  }

  /** Newest first. */
  list(tenantId: string, agent: string, query: NotesQuery): Promise<StoredNote[]> {
    return this.transactions.run(tenantId, (manager) =>
      manager.query(
        `SELECT ${NOTE_COLUMNS} FROM notes
          WHERE agent = $1
            AND (cardinality($2::text[]) = 0 OR kind = ANY($2::text[]))
            AND (NOT $3 OR read_at IS NULL)
          ORDER BY created_at DESC, id DESC
          LIMIT $4`,
        [agent, query.kinds, query.unreadOnly, query.limit],
      ),
    );
  }

  /** Marks the being's unread notes among `ids` read; answers how many were unread. */
  async markRead(manager: EntityManager, agent: string, ids: readonly string[]): Promise<number> {
    const rows: Array<{ marked: number }> = await manager.query(
      `WITH marked AS (
         UPDATE notes SET read_at = now()
          WHERE agent = $1 AND id = ANY($2::bigint[]) AND read_at IS NULL
         RETURNING 1)
       SELECT count(*)::int AS marked FROM marked`,
      [agent, ids],
    );
    return rows[0]!.marked;
  }
}
