/**
 * A row of `think_notes`: one of a being's think notes; the newest set (superseded_at null) is in
 * force. Snake_case, as Postgres names the columns; bigint ids are strings.
 */
export interface ThinkNoteRow {
  readonly id: string;
  readonly tenant_id: string;
  readonly agent: string;
  readonly content: string;
  /** The patrol run that wrote it (null for notes kept from migration 010). */
  readonly run_id: string | null;
  readonly superseded_at: Date | null;
  readonly created_at: Date;
}
