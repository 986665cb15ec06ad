/**
 * A row of `notes`: a being's note: a scene note (the patrol makes a node of it), a plain note, a
 * TODO, a reminder, knowledge. Snake_case, as Postgres names the columns and its repositories
 * read them; bigint ids are strings.
 */
export interface NoteRow {
  readonly id: string;
  readonly tenant_id: string;
  readonly agent: string;
  readonly kind: 'scene' | 'note' | 'todo' | 'reminder' | 'knowledge';
  /** As written; a scene note that did not parse starts with [PARSE_FAILED]. */
  readonly content: string;
  /** A scene note's parsed scene, importance, themes and emotion. */
  readonly scene: unknown;
  readonly importance: number | null;
  readonly themes: string[];
  readonly emotion: Record<string, unknown> | null;
  readonly parse_failed: boolean;
  readonly due_at: Date | null;
  /** Null while unread. */
  readonly read_at: Date | null;
  /** When the patrol made a node of this scene note. */
  readonly processed_at: Date | null;
  /** When the repair step offered this unparsed scene note (once). */
  readonly repair_tried_at: Date | null;
  readonly created_at: Date;
}
