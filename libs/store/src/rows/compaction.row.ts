/**
 * A row of `compactions`: one step of a conversation's session compaction, a rolling summary of
 * every message compacted so far; named by the newest message it compacted. Snake_case, as
 * Postgres names the columns and its repositories read them; bigint ids are strings.
 */
export interface CompactionRow {
  readonly id: string;
  readonly tenant_id: string;
  readonly conversation_id: string;
  readonly agent: string;
  readonly content: string;
  readonly first_message_id: string | null;
  readonly last_message_id: string;
  /** This step's messages. */
  readonly message_count: number | null;
  readonly compacted_tokens: number | null;
  /** Of the summary. */
  readonly token_estimate: number | null;
  /** The span of every message compacted so far. */
  readonly earliest_at: Date | null;
  readonly latest_at: Date | null;
  /** The model that wrote the summary. */
  readonly model: string;
  readonly fact_ids: string[];
  /** The step stopped short of the keep share: the next one continues. */
  readonly cut_short: boolean;
  readonly created_at: Date;
}
