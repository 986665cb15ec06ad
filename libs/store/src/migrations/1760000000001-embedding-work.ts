import type { MigrationInterface, QueryRunner } from 'typeorm';
import { tenantIsolation } from './1760000000000-transcript';

/**
 * What the embedder and the gateway need: finding rows whose vector is missing or
 * was made by another model, tool calls waiting for a description, tenants' own
 * provider keys (encrypted), and the one sanctioned way to enumerate tenants.
 */
export class EmbeddingWork1760000000001 implements MigrationInterface {
  name = 'EmbeddingWork1760000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- (tenant, model) finds both "no vector yet" (NULL) and "made by another model".
      CREATE INDEX messages_embedding_state ON messages (tenant_id, embedding_model);
      CREATE INDEX summaries_embedding_state ON summaries (tenant_id, embedding_model);
      CREATE INDEX facts_embedding_state ON facts (tenant_id, embedding_model);
      CREATE INDEX messages_tool_calls_to_describe ON messages (tenant_id, id)
        WHERE content = '' AND tool_name IS NOT NULL;

      -- Background sweeps visit tenant by tenant. The registry of tenants is readable only
      -- through this function (the table's owner is not forced through its policy; every
      -- other table stays forced), and it reveals tenant ids, nothing else.
      ALTER TABLE tenants NO FORCE ROW LEVEL SECURITY;
      CREATE FUNCTION engram_tenant_ids() RETURNS SETOF text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
        AS $$ SELECT tenant_id FROM tenants ORDER BY tenant_id $$;

      -- A tenant's own API keys for remote models: AES-256-GCM, the key outside the database.
      CREATE TABLE tenant_secrets (
        tenant_id text NOT NULL REFERENCES tenants (tenant_id),
        name text NOT NULL,
        ciphertext bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, name)
      );
      ${tenantIsolation('tenant_secrets')}
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE tenant_secrets;
      DROP FUNCTION engram_tenant_ids();
      ALTER TABLE tenants FORCE ROW LEVEL SECURITY;
      DROP INDEX messages_tool_calls_to_describe, facts_embedding_state, summaries_embedding_state, messages_embedding_state;
    `);
  }
}
