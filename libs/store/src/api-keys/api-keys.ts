import type { DataSource } from 'typeorm';
import { actAsTenant } from '../tenancy/tenant-transactions';
import { ensureTenant } from '../tenancy/tenant-registry';
import type { ApiKeyRow } from '../rows/api-key.row';
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

/** A key as its reads select it: every column but the hash. */
type ListedKey = Pick<
  ApiKeyRow,
  'id' | 'tenant_id' | 'name' | 'prefix' | 'created_at' | 'last_used_at' | 'revoked_at'
>;

const infoOf = (row: ListedKey): ApiKeyInfo => ({
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
      ) as Promise<ListedKey[]>;
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
      ) as Promise<ListedKey[]>;
    });
    return rows.map(infoOf);
  }

  /** Revokes a key by id; its tenant and when, or undefined for an unknown id. Revoking twice keeps the first time. */
  async revoke(keyId: string): Promise<{ tenantId: string; revokedAt: Date } | undefined> {
    // The key is revoked once answered: revoked_at is set.
    const rows: Array<Pick<ApiKeyRow, 'tenant_id' | 'revoked_at'> & { readonly revoked_at: Date }> =
      await this.dataSource.query('SELECT * FROM engram_api_key_revoke($1)', [keyId]);
    return rows[0] && { tenantId: rows[0].tenant_id, revokedAt: rows[0].revoked_at };
  }

  /** The live key's id and tenant; undefined for anything else (malformed, unknown, revoked). */
  async verify(key: string): Promise<ApiPrincipal | undefined> {
    if (!looksLikeApiKey(key)) return undefined;
    const rows: Array<Pick<ApiKeyRow, 'id' | 'tenant_id'>> = await this.dataSource.query(
      'SELECT * FROM engram_api_key_verify($1)',
      [apiKeyHash(key)],
    );
    return rows[0] && { keyId: rows[0].id, tenantId: rows[0].tenant_id };
  }
}
