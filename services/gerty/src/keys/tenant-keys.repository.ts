import { Injectable } from '@nestjs/common';
import { TenantTransactions } from '@engram/store';

/** Sealed secrets per tenant; an empty value means none. */
@Injectable()
export class TenantKeysRepository {
  constructor(private readonly transactions: TenantTransactions) {}

  find(tenantId: string, name: string): Promise<Buffer | null> {
    return this.transactions.run(tenantId, async (manager) => {
      const rows: Array<{ ciphertext: Buffer }> = await manager.query(
        `SELECT ciphertext FROM tenant_secrets WHERE name = $1 AND length(ciphertext) > 0`,
        [name],
      );
      return rows[0]?.ciphertext ?? null;
    });
  }

  store(tenantId: string, name: string, sealed: Buffer): Promise<void> {
    return this.transactions.run(tenantId, async (manager) => {
      await manager.query(`INSERT INTO tenants (tenant_id) VALUES ($1) ON CONFLICT (tenant_id) DO NOTHING`, [
        tenantId,
      ]);
      await manager.query(
        `INSERT INTO tenant_secrets (tenant_id, name, ciphertext) VALUES ($1, $2, $3)
         ON CONFLICT (tenant_id, name) DO UPDATE SET ciphertext = excluded.ciphertext, updated_at = now()`,
        [tenantId, name, sealed],
      );
    });
  }
}
