/**
 * A row of `erasures`: the audit entry of an erase (of a conversation, an agent or a tenant): who
 * asked, when, and how many rows of each kind went, never what they said. Snake_case, as
 * Postgres names the columns; bigint ids are strings.
 */
export interface ErasureRow {
  readonly id: string;
  readonly tenant_id: string;
  readonly scope: 'tenant' | 'agent' | 'conversation';
  /** The agent erased, or the erased conversation's (null when it was not found). */
  readonly agent: string | null;
  readonly conversation_id: string | null;
  /** apikey:<key id>, cli:<user>@<host>, or what a NATS client said. */
  readonly requested_by: string;
  readonly requested_at: Date;
  /** Rows erased per kind, then the stream messages once they are gone. */
  readonly counts: Record<string, number>;
  /** Kept until the conversation's turns are gone from JetStream too. */
  readonly session_key: string | null;
  readonly streams_erased_at: Date | null;
}
