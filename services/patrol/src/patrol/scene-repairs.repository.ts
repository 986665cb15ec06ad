import { Injectable } from '@nestjs/common';
import type { Scene } from '@engram/being';
import type { EntityManager, NoteRow } from '@engram/store';

/**
 * A scene note that did not parse and was never offered for repair; its content as stored (the
 * being's text behind the PARSE_FAILED mark).
 */
export type BrokenSceneNote = Pick<NoteRow, 'id' | 'content'>;

/**
 * The repair step's reads and writes of a being's scene notes, in the caller's tenant
 * transaction (RLS confines them to the tenant; SQL names the agent).
 */
@Injectable()
export class SceneRepairsRepository {
  /** The being's oldest marked scene notes not yet offered, at most `limit`. */
  brokenNotes(manager: EntityManager, agent: string, limit: number): Promise<BrokenSceneNote[]> {
    return manager.query(
      `SELECT id::text, content FROM notes
        WHERE agent = $1 AND kind = 'scene' AND parse_failed AND repair_tried_at IS NULL
        ORDER BY id LIMIT $2`,
      [agent, limit],
    );
  }

  /**
   * Stores a repaired scene on its note, which is then pending like any parsed one (❶ makes a
   * node of it): its content is the being's text without the mark. Answers false when the note
   * was offered already (its stamp is there), so that nothing is stored twice.
   */
  async storeRepair(manager: EntityManager, noteId: string, content: string, scene: Scene): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `UPDATE notes SET scene = $2::jsonb, content = $3, parse_failed = false, repair_tried_at = now()
        WHERE id = $1 AND parse_failed AND repair_tried_at IS NULL RETURNING id`,
      [noteId, JSON.stringify(scene), content],
    );
    return rows.length > 0;
  }

  /** Stamps notes offered without a repair (or that could not be offered): they stay marked, never offered again. */
  async markTried(manager: EntityManager, noteIds: readonly string[]): Promise<void> {
    if (noteIds.length === 0) return;
    await manager.query(
      `UPDATE notes SET repair_tried_at = now() WHERE id = ANY($1::bigint[]) AND repair_tried_at IS NULL`,
      [noteIds],
    );
  }
}
