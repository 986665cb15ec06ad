/**
 * A row of `memory_nodes`: a being's scene node, in one of its clusters (migration 012).
 * Snake_case, as Postgres names the columns and its repositories read them; bigint ids are strings.
 */
export interface MemoryNodeRow {
  readonly id: string;
  readonly tenant_id: string;
  readonly agent: string;
  readonly cluster_id: string;
  /** The stored scene (action, actors, when …); rows kept from migration 010 hold less. */
  readonly scene: unknown;
  readonly feeling: string | null;
  /** 0 … 1. */
  readonly importance: number;
  readonly themes: string[];
  /** valence, arousal, dominance, safety, novelty, trust. */
  readonly emotion: Record<string, unknown> | null;
  readonly session_count: number;
  readonly status: 'active' | 'dying' | 'dead';
  readonly fresh: boolean;
  /** A pinned node never dies. */
  readonly pinned: boolean;
  readonly reactivation_count: number;
  readonly last_activated: Date | null;
  /** The halfvec of when + action + feeling, as Postgres spells it; by embedding_model. */
  readonly embedding: string | null;
  readonly embedding_model: string | null;
  /** The scene note it was made from. */
  readonly source_note_id: string | null;
  /** The node consolidation merged it into. */
  readonly absorbed_into: string | null;
  readonly created_at: Date;
  readonly updated_at: Date;
}
