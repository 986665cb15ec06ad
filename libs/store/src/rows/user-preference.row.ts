/**
 * A row of `user_preferences`: what a being knows its user prefers, by key. Snake_case, as Postgres
 * names the columns.
 */
export interface UserPreferenceRow {
  readonly tenant_id: string;
  readonly agent: string;
  readonly key: string;
  readonly value: string;
  readonly updated_at: Date;
}
