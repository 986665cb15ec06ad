import type { MigrationInterface, QueryRunner } from 'typeorm';
import { loadConfig } from '@engram/config';

/** Every table carries tenant_id, and every table is confined to the tenant of the transaction. */
export function tenantIsolation(table: string): string {
  return `
    ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;
    CREATE POLICY ${table}_tenant_isolation ON ${table}
      USING (tenant_id = engram_current_tenant())
      WITH CHECK (tenant_id = engram_current_tenant());`;
}

/**
 * The durable transcript and what is distilled from it: tenants, conversations,
 * messages, summaries (+ sources), facts and state. Full-text columns are generated
 * and indexed together with tenant_id (btree_gin) so a tenant's search never scans
 * another's postings; embeddings are halfvec of the deployment's width, each with
 * the model that made it, indexed with HNSW.
 */
export class Transcript1760000000000 implements MigrationInterface {
  name = 'Transcript1760000000000';

  async up(q: QueryRunner): Promise<void> {
    const dims = loadConfig(['EMBEDDING_DIMENSIONS']).EMBEDDING_DIMENSIONS;
    await q.query(`
      CREATE EXTENSION IF NOT EXISTS vector;
      CREATE EXTENSION IF NOT EXISTS btree_gin;
      CREATE EXTENSION IF NOT EXISTS pg_trgm;

      -- NULL (no rows) when a transaction did not name its tenant: isolation fails closed.
      CREATE FUNCTION engram_current_tenant() RETURNS text
        LANGUAGE sql STABLE PARALLEL SAFE
        AS $$ SELECT nullif(current_setting('engram.tenant_id', true), '') $$;

      CREATE TABLE tenants (
        tenant_id text PRIMARY KEY CHECK (tenant_id ~ '^[A-Za-z0-9_-]{1,64}$'),
        memory_enabled boolean NOT NULL DEFAULT true,
        settings jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE conversations (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES tenants (tenant_id),
        agent text NOT NULL,
        session_key text NOT NULL,
        channel text,
        channel_id text,
        bot_identity text,
        title text,
        model text,
        settings jsonb NOT NULL DEFAULT '{}',
        active boolean NOT NULL DEFAULT true,
        message_count integer NOT NULL DEFAULT 0,
        token_estimate bigint NOT NULL DEFAULT 0,
        first_message_at timestamptz,
        last_message_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, agent, session_key)
      );
      CREATE INDEX conversations_tenant_agent ON conversations (tenant_id, agent, last_message_at DESC);

      CREATE TABLE messages (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id text NOT NULL,
        conversation_id bigint NOT NULL REFERENCES conversations (id),
        agent text NOT NULL,
        turn_id text NOT NULL,
        position integer NOT NULL,
        stream_seq bigint NOT NULL,
        role text NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
        author text,
        content text NOT NULL,
        raw_content text,
        content_synthesised boolean NOT NULL DEFAULT false,
        tool_name text,
        tool_call_id text,
        tool_args jsonb,
        tool_result jsonb,
        metadata jsonb NOT NULL DEFAULT '{}',
        token_estimate integer NOT NULL,
        created_at timestamptz NOT NULL,
        ingested_at timestamptz NOT NULL DEFAULT now(),
        tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
        embedding halfvec(${dims}),
        embedding_model text,
        embedded_at timestamptz,
        access_count integer NOT NULL DEFAULT 0,
        last_accessed_at timestamptz,
        compacted_at timestamptz,
        UNIQUE (conversation_id, turn_id, position)
      );
      CREATE INDEX messages_conversation_order ON messages (conversation_id, created_at, stream_seq, position);
      CREATE INDEX messages_tenant_agent_time ON messages (tenant_id, agent, created_at);
      CREATE INDEX messages_tenant_tsv ON messages USING gin (tenant_id, tsv);
      CREATE INDEX messages_embedding ON messages USING hnsw (embedding halfvec_cosine_ops);

      -- The transcript is immutable: only derived columns change (an empty tool call may get
      -- synthesised content once).
      CREATE FUNCTION engram_messages_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.content IS DISTINCT FROM OLD.content
           AND NOT (OLD.content = '' AND NOT OLD.content_synthesised AND NEW.content_synthesised) THEN
          RAISE EXCEPTION 'messages are immutable: content of message % cannot change', OLD.id;
        END IF;
        IF (NEW.tenant_id, NEW.conversation_id, NEW.agent, NEW.turn_id, NEW.position, NEW.role, NEW.author,
            NEW.raw_content, NEW.tool_name, NEW.tool_call_id, NEW.tool_args, NEW.tool_result, NEW.created_at)
           IS DISTINCT FROM
           (OLD.tenant_id, OLD.conversation_id, OLD.agent, OLD.turn_id, OLD.position, OLD.role, OLD.author,
            OLD.raw_content, OLD.tool_name, OLD.tool_call_id, OLD.tool_args, OLD.tool_result, OLD.created_at) THEN
          RAISE EXCEPTION 'messages are immutable: message % cannot change', OLD.id;
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER messages_immutable BEFORE UPDATE ON messages
        FOR EACH ROW EXECUTE FUNCTION engram_messages_immutable();

      CREATE TABLE summaries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id text NOT NULL,
        conversation_id bigint NOT NULL REFERENCES conversations (id),
        agent text NOT NULL,
        depth smallint NOT NULL CHECK (depth BETWEEN 0 AND 2),
        content text NOT NULL,
        earliest_at timestamptz NOT NULL,
        latest_at timestamptz NOT NULL,
        message_count integer NOT NULL,
        token_estimate integer NOT NULL,
        model text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
        embedding halfvec(${dims}),
        embedding_model text,
        embedded_at timestamptz,
        access_count integer NOT NULL DEFAULT 0,
        last_accessed_at timestamptz
      );
      CREATE INDEX summaries_conversation ON summaries (conversation_id, depth, earliest_at);
      CREATE INDEX summaries_tenant_tsv ON summaries USING gin (tenant_id, tsv);
      CREATE INDEX summaries_embedding ON summaries USING hnsw (embedding halfvec_cosine_ops);

      -- A leaf links to its messages, a branch or root to its child summaries.
      CREATE TABLE summary_sources (
        tenant_id text NOT NULL,
        summary_id bigint NOT NULL REFERENCES summaries (id),
        source_kind text NOT NULL CHECK (source_kind IN ('message', 'summary')),
        source_id bigint NOT NULL,
        ordinal integer NOT NULL,
        PRIMARY KEY (summary_id, source_kind, source_id)
      );
      CREATE INDEX summary_sources_source ON summary_sources (source_kind, source_id);

      CREATE TABLE facts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id text NOT NULL,
        agent text NOT NULL,
        content text NOT NULL,
        category text NOT NULL CHECK (category IN
          ('preference', 'fact', 'event', 'relationship', 'decision', 'correction', 'task', 'general')),
        lifetime text NOT NULL CHECK (lifetime IN ('sticky', 'user_preference', 'project_context', 'learned_pattern')),
        importance smallint NOT NULL CHECK (importance BETWEEN 1 AND 10),
        origin text NOT NULL CHECK (origin IN ('tag', 'extracted', 'saved')),
        -- Natural key of what produced the fact (e.g. tag:<message>:<n>): redelivery adds nothing.
        origin_key text NOT NULL,
        conversation_id bigint REFERENCES conversations (id),
        source_message_ids bigint[] NOT NULL DEFAULT '{}',
        -- Bitemporal: a superseded or forgotten fact is closed, never erased.
        valid_from timestamptz NOT NULL,
        valid_to timestamptz,
        superseded_by bigint REFERENCES facts (id),
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
        embedding halfvec(${dims}),
        embedding_model text,
        embedded_at timestamptz,
        access_count integer NOT NULL DEFAULT 0,
        last_accessed_at timestamptz,
        UNIQUE (tenant_id, origin_key)
      );
      CREATE INDEX facts_active ON facts (tenant_id, agent, category) WHERE valid_to IS NULL;
      CREATE INDEX facts_tenant_tsv ON facts USING gin (tenant_id, tsv);
      CREATE INDEX facts_embedding ON facts USING hnsw (embedding halfvec_cosine_ops);

      CREATE TABLE state (
        tenant_id text NOT NULL,
        agent text NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        source_message_id bigint,
        stated_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, agent, key)
      );

      ${['tenants', 'conversations', 'messages', 'summaries', 'summary_sources', 'facts', 'state']
        .map(tenantIsolation)
        .join('\n')}
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE state, facts, summary_sources, summaries, messages, conversations, tenants;
      DROP FUNCTION engram_messages_immutable();
      DROP FUNCTION engram_current_tenant();
    `);
  }
}
