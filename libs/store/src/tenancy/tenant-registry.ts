import type { EntityManager } from 'typeorm';

/**
 * Registers the tenant on its first write (the registry is how background sweeps find
 * tenants) and answers whether derived memory is on for it. Runs in the caller's
 * transaction, acting for that tenant.
 */
export async function ensureTenant(
  manager: EntityManager,
  tenantId: string,
): Promise<{ memoryEnabled: boolean }> {
  const rows: Array<{ memory_enabled: boolean }> = await manager.query(
    `WITH created AS (
       INSERT INTO tenants (tenant_id) VALUES ($1) ON CONFLICT (tenant_id) DO NOTHING RETURNING memory_enabled
     )
     SELECT memory_enabled FROM created UNION ALL SELECT memory_enabled FROM tenants WHERE tenant_id = $1`,
    [tenantId],
  );
  return { memoryEnabled: rows[0]?.memory_enabled ?? true };
}
