/** A row of `state`: an agent's key/value pair ([STATE:key] … [/STATE]); the latest statement wins. */
export interface StateRow {
  readonly tenantId: string;
  readonly agent: string;
  readonly key: string;
  readonly value: string;
  /** bigint: a string. */
  readonly sourceMessageId: string | null;
  readonly statedAt: Date;
  readonly updatedAt: Date;
}
