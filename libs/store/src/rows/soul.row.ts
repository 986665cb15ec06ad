/**
 * A row of `souls`: who a being is, one per being, replaced whole. Snake_case, as Postgres names the
 * columns.
 */
export interface SoulRow {
  readonly tenant_id: string;
  readonly agent: string;
  readonly personality: string;
  readonly voice: string;
  /** `"values"` in SQL (a reserved word). */
  readonly values: string[];
  readonly backstory: string;
  readonly inner_world: string;
  readonly examples: string[];
  readonly updated_at: Date;
}
