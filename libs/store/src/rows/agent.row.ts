/**
 * A row of `agents`: an agent's stored profile (mem.rpc.agents.put), one per tenant and agent.
 * Snake_case, as Postgres names the columns and its repositories read them.
 */
export interface AgentRow {
  readonly tenant_id: string;
  readonly agent: string;
  readonly name: string | null;
  readonly personality: string | null;
  readonly job: string | null;
  /** What the agent calls its user. */
  readonly user_name: string | null;
  readonly tools: string[];
  /** Whether it has scene memory (a being has it whatever its profile says). */
  readonly scene_memory: boolean;
  readonly model: string | null;
  readonly settings: Record<string, unknown>;
  readonly created_at: Date;
  readonly updated_at: Date;
}
