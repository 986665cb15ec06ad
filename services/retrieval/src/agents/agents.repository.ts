import { Injectable } from '@nestjs/common';
import { factInForce, type AgentRow, type EntityManager } from '@engram/store';

/** The profile's columns AGENTS reads: agents is LEFT JOINed, so each is null without a profile. */
type ProfileColumns = {
  readonly [
    C in 'name' | 'personality' | 'job' | 'user_name' | 'tools' | 'scene_memory' | 'model' | 'settings'
  ]: AgentRow[C] | null;
};

/** One agent of the tenant with its stored profile (columns null without one) and its counts. */
export interface AgentSummaryRow extends Pick<AgentRow, 'agent'>, ProfileColumns {
  readonly has_profile: boolean;
  readonly profile_created_at: AgentRow['created_at'] | null;
  readonly profile_updated_at: AgentRow['updated_at'] | null;
  readonly conversations: string;
  readonly messages: string;
  /** Its facts in force (the RPC's openFacts), as search serves them. */
  readonly open_facts: string;
  readonly scene_nodes: string;
  readonly last_message_at: Date | null;
  readonly total: string;
}

/*
 * Each count is one grouped read of an index led by (tenant_id, agent): conversations_tenant_agent
 * (messages are the conversations' counters, so the cost follows conversations, not messages),
 * facts_active (open facts only; those in force are a subset), memory_nodes_of_being, and the
 * primary keys of agents and beings. An agent whose facts are all closed or expired and that has
 * nothing else is not listed: such an agent has no memory in use (nothing of it is served).
 */
const AGENTS = `
  WITH conv AS (
         SELECT agent, count(*) AS conversations, sum(message_count) AS messages, max(last_message_at) AS last_message_at
           FROM conversations GROUP BY agent),
       in_force AS (SELECT f.agent, count(*) AS n FROM facts f WHERE ${factInForce('f')} GROUP BY f.agent),
       nodes AS (SELECT agent, count(*) AS n FROM memory_nodes WHERE status <> 'dead' GROUP BY agent),
       named AS (
         SELECT agent FROM conv UNION SELECT agent FROM in_force UNION SELECT agent FROM agents
         UNION SELECT agent FROM beings UNION SELECT agent FROM nodes),
       page AS (SELECT agent, count(*) OVER () AS total FROM named ORDER BY agent LIMIT $1 OFFSET $2)
  SELECT p.agent, p.total, a.agent IS NOT NULL AS has_profile,
         a.name, a.personality, a.job, a.user_name, a.tools, a.scene_memory, a.model, a.settings,
         a.created_at AS profile_created_at, a.updated_at AS profile_updated_at,
         coalesce(c.conversations, 0) AS conversations, coalesce(c.messages, 0) AS messages,
         c.last_message_at, coalesce(f.n, 0) AS open_facts, coalesce(n.n, 0) AS scene_nodes
    FROM page p
    LEFT JOIN conv c ON c.agent = p.agent
    LEFT JOIN in_force f ON f.agent = p.agent
    LEFT JOIN nodes n ON n.agent = p.agent
    LEFT JOIN agents a ON a.agent = p.agent
   ORDER BY p.agent`;

const COUNT = `
  SELECT count(*) AS total FROM (
    SELECT agent FROM conversations UNION SELECT f.agent FROM facts f WHERE ${factInForce('f')}
    UNION SELECT agent FROM agents UNION SELECT agent FROM beings
    UNION SELECT agent FROM memory_nodes WHERE status <> 'dead') named`;

/** The tenant's agents with profile and counts, in the caller's tenant transaction (row-level security confines every table). */
@Injectable()
export class AgentsRepository {
  async list(
    manager: EntityManager,
    page: { limit: number; offset: number },
  ): Promise<{ agents: AgentSummaryRow[]; total: number }> {
    const agents: AgentSummaryRow[] = await manager.query(AGENTS, [page.limit, page.offset]);
    if (agents.length > 0) return { agents, total: Number(agents[0]!.total) };
    // A page past the end has no row to carry the total.
    const [{ total }]: Array<{ total: string }> =
      page.offset > 0 ? await manager.query(COUNT) : [{ total: '0' }];
    return { agents, total: Number(total) };
  }
}
