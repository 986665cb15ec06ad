import type { MigrationInterface, QueryRunner } from 'typeorm';
import { tenantIsolation } from './1760000000000-transcript';

const TABLES = ['agents', 'workspace_documents', 'skills', 'memory_nodes', 'agent_notes'];

/**
 * What an agent's prompt is built from, per tenant and agent: its profile (name,
 * personality, job, tools, whether it has scene memory), its workspace documents
 * (SOUL.md … and daily notes), its skills (markdown with trigger keywords and
 * patterns), and — until patrol builds scene memory fully — scene nodes and notes.
 * Workspace documents and skills are upserted by name (an import run twice adds nothing).
 */
export class AgentWorkspace1760000000010 implements MigrationInterface {
  name = 'AgentWorkspace1760000000010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents (
        tenant_id text NOT NULL REFERENCES tenants (tenant_id),
        agent text NOT NULL CHECK (agent ~ '^[A-Za-z0-9_-]{1,64}$'),
        name text,
        personality text,
        job text,
        user_name text,
        tools text[] NOT NULL DEFAULT '{}',
        scene_memory boolean NOT NULL DEFAULT false,
        model text,
        settings jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, agent)
      );

      CREATE TABLE workspace_documents (
        tenant_id text NOT NULL REFERENCES tenants (tenant_id),
        agent text NOT NULL,
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('soul', 'identity', 'user', 'agents', 'tools', 'memory', 'daily')),
        day date,
        content text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, agent, name),
        CHECK (kind <> 'daily' OR day IS NOT NULL)
      );

      CREATE TABLE skills (
        tenant_id text NOT NULL REFERENCES tenants (tenant_id),
        agent text NOT NULL,
        name text NOT NULL,
        description text,
        keywords text[] NOT NULL DEFAULT '{}',
        patterns text[] NOT NULL DEFAULT '{}',
        body text NOT NULL,
        source text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, agent, name)
      );

      CREATE TABLE memory_nodes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES tenants (tenant_id),
        agent text NOT NULL,
        cluster text,
        title text,
        content text NOT NULL,
        activation real NOT NULL DEFAULT 0,
        last_activated_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX memory_nodes_recently_activated ON memory_nodes (tenant_id, agent, last_activated_at DESC NULLS LAST);

      CREATE TABLE agent_notes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES tenants (tenant_id),
        agent text NOT NULL,
        kind text NOT NULL CHECK (kind IN
          ('note', 'think', 'partner_rule', 'preference', 'relationship', 'knowledge', 'map', 'diary')),
        content text NOT NULL,
        -- The diary entry's day.
        day date,
        -- NULL while unread.
        read_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX agent_notes_by_kind ON agent_notes (tenant_id, agent, kind, created_at);

      ${TABLES.map(tenantIsolation).join('\n')}
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ${[...TABLES].reverse().join(', ')};`);
  }
}
