/** A row of `relationships`: a person a being knows, by name. Snake_case, as Postgres names the columns. */
export interface RelationshipRow {
  readonly tenant_id: string;
  readonly agent: string;
  readonly person: string;
  readonly relation: string;
  readonly notes: string;
  readonly updated_at: Date;
}
