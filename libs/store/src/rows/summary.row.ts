/** A row of `summaries`: a node of a conversation's summary tree (depth 0 a leaf). bigint ids are strings. */
export interface SummaryRow {
  readonly id: string;
  readonly tenantId: string;
  readonly conversationId: string;
  readonly agent: string;
  readonly depth: number;
  readonly content: string;
  readonly earliestAt: Date;
  readonly latestAt: Date;
  readonly messageCount: number;
  readonly tokenEstimate: number;
  /** The model that wrote it. */
  readonly model: string;
  readonly language: string;
  readonly createdAt: Date;
  readonly announcedAt: Date | null;
}
