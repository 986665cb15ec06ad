import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys: what authenticates a request to the api edge (HTTP, MCP, the mem0-compatible
 * routes) and decides its tenant. Only a key's SHA-256 is kept (the key itself is shown once,
 * when it is made). The table is confined to its tenant but not FORCEd (like `beings` and the
 * outbox): the edge finds a key's tenant before it knows the tenant, through
 * `engram_api_key_verify`, and `engram apikey revoke KEY_ID` through `engram_api_key_revoke`.
 */
export class ApiKeys1760000000013 implements MigrationInterface {
  name = 'ApiKeys1760000000013';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_keys (
        id text PRIMARY KEY CHECK (id ~ '^key_[A-Za-z0-9_-]{12}$'),
        tenant_id text NOT NULL REFERENCES tenants (tenant_id),
        name text NOT NULL DEFAULT '' CHECK (length(name) <= 200),
        -- The key's first characters, so a person can tell keys apart in a list.
        prefix text NOT NULL,
        sha256 bytea NOT NULL UNIQUE CHECK (length(sha256) = 32),
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE INDEX api_keys_of_tenant ON api_keys (tenant_id, created_at);
      ALTER TABLE api_keys ENABLE ROW LEVEL SECURITY;
      CREATE POLICY api_keys_tenant_isolation ON api_keys
        USING (tenant_id = engram_current_tenant())
        WITH CHECK (tenant_id = engram_current_tenant());

      -- The live key with this hash, and its tenant; nothing for an unknown or revoked key.
      -- Notes when it was last used, at most once a minute (a write per request would cost more
      -- than the answer).
      CREATE FUNCTION engram_api_key_verify(key_sha256 bytea)
        RETURNS TABLE (id text, tenant_id text)
        LANGUAGE sql SECURITY DEFINER SET search_path = public
        AS $$
          UPDATE api_keys k SET last_used_at = now()
           WHERE k.sha256 = key_sha256 AND k.revoked_at IS NULL
             AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute');
          SELECT k.id, k.tenant_id FROM api_keys k
           WHERE k.sha256 = key_sha256 AND k.revoked_at IS NULL
        $$;

      -- Revokes a key by its id, whatever its tenant (an operator's act); answers the tenant
      -- and when it was revoked (the first time), nothing for an unknown id.
      CREATE FUNCTION engram_api_key_revoke(key_id text)
        RETURNS TABLE (tenant_id text, revoked_at timestamptz)
        LANGUAGE sql SECURITY DEFINER SET search_path = public
        AS $$
          UPDATE api_keys k SET revoked_at = coalesce(k.revoked_at, now())
           WHERE k.id = key_id
          RETURNING k.tenant_id, k.revoked_at
        $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP FUNCTION engram_api_key_revoke(text);
      DROP FUNCTION engram_api_key_verify(bytea);
      DROP TABLE api_keys;
    `);
  }
}
