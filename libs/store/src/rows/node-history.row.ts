/**
 * A row of `node_history`: a point of a scene node's importance curve, one per patrol run (after
 * its decay step) plus the run that made it. Snake_case, as Postgres names the columns; bigint
 * ids are strings.
 */
export interface NodeHistoryRow {
  readonly tenant_id: string;
  readonly node_id: string;
  readonly run_id: string;
  /** 'scenes': the run made the node; 'decay': after the run's decay step. */
  readonly step: 'scenes' | 'decay';
  readonly importance: number;
  readonly effective_importance: number;
  readonly status: 'active' | 'dying' | 'dead';
  readonly recorded_at: Date;
}
