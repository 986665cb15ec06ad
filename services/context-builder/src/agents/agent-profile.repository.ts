import { Injectable } from '@nestjs/common';
import type { JsonObject } from '@bufbuild/protobuf';
import { TenantTransactions, type AgentRow, type EntityManager } from '@engram/store';
import type { AgentProfileRecord } from './agent-profile';

export interface StoredAgentProfile extends AgentProfileRecord {
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** An agent as COLUMNS reads it; its settings are the JSON object a put stored. */
type AgentProfileColumns = Pick<
  AgentRow,
  | 'agent'
  | 'name'
  | 'personality'
  | 'job'
  | 'user_name'
  | 'tools'
  | 'scene_memory'
  | 'model'
  | 'settings'
  | 'created_at'
  | 'updated_at'
> & { readonly settings: JsonObject };

const COLUMNS =
  'agent, name, personality, job, user_name, tools, scene_memory, model, settings, created_at, updated_at';

const profileOf = (r: AgentProfileColumns): StoredAgentProfile => ({
  agent: r.agent,
  name: r.name,
  personality: r.personality,
  job: r.job,
  userName: r.user_name,
  tools: r.tools,
  sceneMemory: r.scene_memory,
  model: r.model,
  settings: r.settings,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Agent profiles (table agents). */
@Injectable()
export class AgentProfileRepository {
  constructor(private readonly transactions: TenantTransactions) {}

  /**
   * Stores the whole profile (insert or replace) in the caller's tenant transaction; updated_at
   * moves only when something changed.
   */
  async put(
    manager: EntityManager,
    tenantId: string,
    profile: AgentProfileRecord,
  ): Promise<StoredAgentProfile> {
    const values = [
      tenantId,
      profile.agent,
      profile.name,
      profile.personality,
      profile.job,
      profile.userName,
      profile.tools,
      profile.sceneMemory,
      profile.model,
      JSON.stringify(profile.settings),
    ];
    // A SELECT around the upsert, so the driver answers rows; the unchanged profile is read back.
    const rows: AgentProfileColumns[] = await manager.query(
      `WITH put AS (
         INSERT INTO agents AS a (tenant_id, agent, name, personality, job, user_name, tools, scene_memory, model, settings)
         VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8, $9, $10::jsonb)
         ON CONFLICT (tenant_id, agent) DO UPDATE
            SET name = EXCLUDED.name, personality = EXCLUDED.personality, job = EXCLUDED.job,
                user_name = EXCLUDED.user_name, tools = EXCLUDED.tools, scene_memory = EXCLUDED.scene_memory,
                model = EXCLUDED.model, settings = EXCLUDED.settings, updated_at = now()
          WHERE (a.name, a.personality, a.job, a.user_name, a.tools, a.scene_memory, a.model, a.settings)
                IS DISTINCT FROM
                (EXCLUDED.name, EXCLUDED.personality, EXCLUDED.job, EXCLUDED.user_name, EXCLUDED.tools,
                 EXCLUDED.scene_memory, EXCLUDED.model, EXCLUDED.settings)
         RETURNING ${COLUMNS}
       )
       SELECT ${COLUMNS} FROM put
       UNION ALL
       SELECT ${COLUMNS} FROM agents WHERE tenant_id = $1 AND agent = $2 AND NOT EXISTS (SELECT 1 FROM put)`,
      values,
    );
    return profileOf(rows[0]!);
  }

  /** A plain read, in a tenant transaction of its own (the handler's read-only shortcut). */
  get(tenantId: string, agent: string): Promise<StoredAgentProfile | null> {
    return this.transactions.run(tenantId, async (manager) => {
      const rows: AgentProfileColumns[] = await manager.query(
        `SELECT ${COLUMNS} FROM agents WHERE agent = $1`,
        [agent],
      );
      return rows[0] ? profileOf(rows[0]) : null;
    });
  }
}
