/** A row of `diary`: a being's diary entry, one per day. Snake_case, as Postgres names the columns. */
export interface DiaryRow {
  readonly tenant_id: string;
  readonly agent: string;
  /** A date: YYYY-MM-DD, as its readers select it (`day::text`). */
  readonly day: string;
  readonly content: string;
  /** The model that wrote it. */
  readonly model: string | null;
  readonly updated_at: Date;
}
