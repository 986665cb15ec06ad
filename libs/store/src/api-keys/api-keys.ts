import type { DataSource } from 'typeorm';
import { actAsTenant } from '../tenancy/tenant-transactions';
import { ensureTenant } from '../tenancy/tenant-registry';
import { apiKeyHash, looksLikeApiKey, newApiKey } from './api-key';

/** A key as listed: never the key itself. */
export interface ApiKeyInfo {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  readonly prefix: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}

/** Who a request is, once its key checked out. */
export interface ApiPrincipal {
  readonly keyId: string;
  readonly tenantId: string;
}

interface KeyRow {
  id: string;
  tenant_id: string;
  name: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const infoOf = (row: KeyRow): ApiKeyInfo => ({
  id: row.id,
  tenantId: row.tenant_id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
});

/** The api_keys table: made and listed per tenant, verified and revoked by key or id alone. */
export class ApiKeyStore {
  constructor(private readonly dataSource: DataSource) {}

  /** A new key for the tenant (registered if new); the key is in the answer and nowhere else. */
  async create(tenantId: string, name = ''): Promise<ApiKeyInfo & { key: string }> {
    const made = newApiKey();
    const [row] = await this.dataSource.transaction(async (manager) => {
      await actAsTenant(manager, tenantId);
      await ensureTenant(manager, tenantId);
      return manager.query(
        `INSERT INTO api_keys (id, tenant_id, name, prefix, sha256) VALUES ($1, $2, $3, $4, $5)
         RETURNING id, tenant_id, name, prefix, created_at, last_used_at, revoked_at`,
        [made.id, tenantId, name, made.prefix, made.sha256],
      ) as Promise<KeyRow[]>;
    });
    return { ...infoOf(row!), key: made.key };
  }

  /** The tenant's keys, oldest first, revoked ones included. */
  async list(tenantId: string): Promise<ApiKeyInfo[]> {
    const rows = await this.dataSource.transaction(async (manager) => {
      await actAsTenant(manager, tenantId);
      return manager.query(
        `SELECT id, tenant_id, name, prefix, created_at, last_used_at, revoked_at
           FROM api_keys ORDER BY created_at, id`,
      ) as Promise<KeyRow[]>;
    });
    return rows.map(infoOf);
  }

  /** Revokes a key by id; its tenant and when, or undefined for an unknown id. Revoking twice keeps the first time. */
  async revoke(keyId: string): Promise<{ tenantId: string; revokedAt: Date } | undefined> {
    const rows: Array<{ tenant_id: string; revoked_at: Date }> = await this.dataSource.query(
      'SELECT * FROM engram_api_key_revoke($1)',
      [keyId],
    );
    return rows[0] && { tenantId: rows[0].tenant_id, revokedAt: rows[0].revoked_at };
  }

  /** The live key's id and tenant; undefined for anything else (malformed, unknown, revoked). */
  async verify(key: string): Promise<ApiPrincipal | undefined> {
    if (!looksLikeApiKey(key)) return undefined;
    const rows: Array<{ id: string; tenant_id: string }> = await this.dataSource.query(
      'SELECT * FROM engram_api_key_verify($1)',
      [apiKeyHash(key)],
    );
    return rows[0] && { keyId: rows[0].id, tenantId: rows[0].tenant_id };
  }
}
