/**
 * A row of `patrol_runs`: one patrol of a being, each step recorded as done in the transaction of
 * its effect (at most one unfinished run per being). Snake_case, as Postgres names the columns;
 * bigint ids are strings.
 */
export interface PatrolRunRow {
  readonly id: string;
  readonly tenant_id: string;
  readonly agent: string;
  readonly trigger: 'schedule' | 'demand';
  /** The steps whose effect is committed (PatrolStep names). */
  readonly steps_done: string[];
  /** What each step changed, by step. */
  readonly report: Record<string, unknown>;
  readonly started_at: Date;
  /** Null while it runs, or when its process died (it is resumed). */
  readonly finished_at: Date | null;
}
