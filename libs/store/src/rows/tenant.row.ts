/** A row of `tenants`: one customer's memory, registered on its first write. */
export interface TenantRow {
  readonly tenantId: string;
  /** Off: nothing is derived from this tenant's transcript (facts, state, summaries, scenes). */
  readonly memoryEnabled: boolean;
  readonly settings: Record<string, unknown>;
  /** The text-search configurations its items were indexed with. */
  readonly languages: readonly string[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
