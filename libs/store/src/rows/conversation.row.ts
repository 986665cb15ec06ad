/** A row of `conversations`: an agent's thread of turns, named by its session key. bigint ids are strings. */
export interface ConversationRow {
  readonly id: string;
  readonly tenantId: string;
  readonly agent: string;
  readonly sessionKey: string;
  readonly channel: string | null;
  readonly channelId: string | null;
  readonly botIdentity: string | null;
  readonly title: string | null;
  readonly model: string | null;
  readonly settings: Record<string, unknown>;
  readonly active: boolean;
  readonly messageCount: number;
  /** bigint: a string. */
  readonly tokenEstimate: string;
  readonly firstMessageAt: Date | null;
  readonly lastMessageAt: Date | null;
  /** Decided from its first messages; null until then. */
  readonly language: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
