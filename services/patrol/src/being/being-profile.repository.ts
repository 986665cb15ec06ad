import { Injectable } from '@nestjs/common';
import {
  TenantTransactions,
  type ClusterRow,
  type EntityManager,
  type PartnerRuleRow,
  type RelationshipRow,
  type SoulRow,
  type UserPreferenceRow,
} from '@engram/store';

/** A partner rule as the profile reads and answers it. */
export type PartnerRule = Pick<PartnerRuleRow, 'id' | 'rule' | 'enabled'>;

/** A relationship as the profile reads and writes it. */
export type Relationship = Pick<RelationshipRow, 'person' | 'relation' | 'notes'>;

/** A user preference as the profile reads and writes it. */
export type UserPreference = Pick<UserPreferenceRow, 'key' | 'value'>;

/** The soul as the profile reads and writes it (SOUL_COLUMNS). */
export type Soul = Pick<
  SoulRow,
  'personality' | 'voice' | 'values' | 'backstory' | 'inner_world' | 'examples'
>;

/** A cluster of the being with how many of its nodes are active, dying and dead. */
export interface ClusterState extends Pick<ClusterRow, 'id' | 'name' | 'root' | 'parentId'> {
  readonly active: number;
  readonly dying: number;
  readonly dead: number;
}

/** Everything mem.rpc.being.get answers, read in one transaction. */
export interface BeingRecord {
  readonly soul: Soul | null;
  readonly rules: PartnerRule[];
  readonly relationships: Relationship[];
  readonly preferences: UserPreference[];
  readonly clusters: ClusterState[];
  readonly unreadNotes: number;
  readonly pendingScenes: number;
}

const SOUL_COLUMNS = `personality, voice, "values", backstory, inner_world, examples`;

/**
 * A being's profile: partner rules (by rule text), relationships (by person), user preferences
 * (by key) and its soul (one per being, replaced whole). Puts run in the caller's tenant
 * transaction (PutBeingProfileUseCase, which makes the agent a being first); an upsert that
 * changes nothing keeps the row's updated_at. `get` is a plain read in a transaction of its own.
 */
@Injectable()
export class BeingProfileRepository {
  constructor(private readonly transactions: TenantTransactions) {}

  putRule(
    manager: EntityManager,
    tenantId: string,
    agent: string,
    rule: string,
    enabled: boolean,
  ): Promise<PartnerRule> {
    return this.upsert<PartnerRule>(
      manager,
      tenantId,
      agent,
      `INSERT INTO partner_rules AS t (tenant_id, agent, rule, enabled) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, agent, rule) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now()
        WHERE t.enabled IS DISTINCT FROM EXCLUDED.enabled`,
      `id::text AS id, rule, enabled`,
      `partner_rules WHERE agent = $2 AND rule = $3`,
      [rule, enabled],
    );
  }

  putRelationship(
    manager: EntityManager,
    tenantId: string,
    agent: string,
    r: Relationship,
  ): Promise<Relationship> {
    return this.upsert<Relationship>(
      manager,
      tenantId,
      agent,
      `INSERT INTO relationships AS t (tenant_id, agent, person, relation, notes) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (tenant_id, agent, person) DO UPDATE
          SET relation = EXCLUDED.relation, notes = EXCLUDED.notes, updated_at = now()
        WHERE (t.relation, t.notes) IS DISTINCT FROM (EXCLUDED.relation, EXCLUDED.notes)`,
      `person, relation, notes`,
      `relationships WHERE agent = $2 AND person = $3`,
      [r.person, r.relation, r.notes],
    );
  }

  putPreference(
    manager: EntityManager,
    tenantId: string,
    agent: string,
    p: UserPreference,
  ): Promise<UserPreference> {
    return this.upsert<UserPreference>(
      manager,
      tenantId,
      agent,
      `INSERT INTO user_preferences AS t (tenant_id, agent, key, value) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, agent, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
        WHERE t.value IS DISTINCT FROM EXCLUDED.value`,
      `key, value`,
      `user_preferences WHERE agent = $2 AND key = $3`,
      [p.key, p.value],
    );
  }

  putSoul(manager: EntityManager, tenantId: string, agent: string, s: Soul): Promise<Soul> {
    return this.upsert<Soul>(
      manager,
      tenantId,
      agent,
      `INSERT INTO souls AS t (tenant_id, agent, ${SOUL_COLUMNS}) VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8::text[])
       ON CONFLICT (tenant_id, agent) DO UPDATE
          SET personality = EXCLUDED.personality, voice = EXCLUDED.voice, "values" = EXCLUDED."values",
              backstory = EXCLUDED.backstory, inner_world = EXCLUDED.inner_world,
              examples = EXCLUDED.examples, updated_at = now()
        WHERE (t.personality, t.voice, t."values", t.backstory, t.inner_world, t.examples)
              IS DISTINCT FROM
              (EXCLUDED.personality, EXCLUDED.voice, EXCLUDED."values", EXCLUDED.backstory,
               EXCLUDED.inner_world, EXCLUDED.examples)`,
      SOUL_COLUMNS,
      `souls WHERE agent = $2`,
      [s.personality, s.voice, s.values, s.backstory, s.inner_world, s.examples],
    );
  }

  /** The being's profile, clusters and note counts; null when the agent is no being (nothing is made). */
  get(tenantId: string, agent: string): Promise<BeingRecord | null> {
    return this.transactions.run(tenantId, async (manager) => {
      const being: unknown[] = await manager.query(`SELECT 1 FROM beings WHERE agent = $1`, [agent]);
      if (being.length === 0) return null;
      const rows = <T>(sql: string): Promise<T[]> => manager.query(sql, [agent]);
      const [soul] = await rows<Soul>(`SELECT ${SOUL_COLUMNS} FROM souls WHERE agent = $1`);
      const rules = await rows<PartnerRule>(
        `SELECT id::text AS id, rule, enabled FROM partner_rules WHERE agent = $1 ORDER BY id`,
      );
      const relationships = await rows<Relationship>(
        `SELECT person, relation, notes FROM relationships WHERE agent = $1 ORDER BY person`,
      );
      const preferences = await rows<UserPreference>(
        `SELECT key, value FROM user_preferences WHERE agent = $1 ORDER BY key`,
      );
      // Nodes merged into another are part of it, not nodes of their own.
      const clusters = await rows<ClusterState>(
        `SELECT c.id::text AS id, c.name, c.root, c.parent_id::text AS "parentId",
                count(m.id) FILTER (WHERE m.status = 'active')::int AS active,
                count(m.id) FILTER (WHERE m.status = 'dying')::int AS dying,
                count(m.id) FILTER (WHERE m.status = 'dead')::int AS dead
           FROM clusters c
           LEFT JOIN memory_nodes m ON m.cluster_id = c.id AND m.agent = c.agent AND m.absorbed_into IS NULL
          WHERE c.agent = $1
          GROUP BY c.id
          ORDER BY c.root IS NULL, c.id`,
      );
      const [counts] = await rows<{ unread: number; pending: number }>(
        `SELECT count(*) FILTER (WHERE kind <> 'scene' AND read_at IS NULL)::int AS unread,
                count(*) FILTER (WHERE kind = 'scene' AND processed_at IS NULL AND NOT parse_failed)::int AS pending
           FROM notes WHERE agent = $1`,
      );
      return {
        soul: soul ?? null,
        rules,
        relationships,
        preferences,
        clusters,
        unreadNotes: counts!.unread,
        pendingScenes: counts!.pending,
      };
    });
  }

  /**
   * Runs an upsert (`insert`, with $1 tenant and $2 agent, then `values`) and answers the row:
   * the one it wrote, or, when nothing changed, the one stored (`stored`: the table and WHERE of
   * its key). A SELECT around it, so the driver answers rows.
   */
  private async upsert<T>(
    manager: EntityManager,
    tenantId: string,
    agent: string,
    insert: string,
    columns: string,
    stored: string,
    values: unknown[],
  ): Promise<T> {
    const rows: T[] = await manager.query(
      `WITH put AS (${insert} RETURNING ${columns})
       SELECT ${columns} FROM put
       UNION ALL
       SELECT ${columns} FROM ${stored} AND NOT EXISTS (SELECT 1 FROM put)`,
      [tenantId, agent, ...values],
    );
    return rows[0]!;
  }
}
