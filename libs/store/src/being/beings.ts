import type { EntityManager } from 'typeorm';
import { ensureTenant } from '../tenancy/tenant-registry';

/** The ids of a being's two root clusters. */
export interface BeingRoots {
  readonly business: string;
  readonly private: string;
}

/**
 * Makes the agent a being of the transaction's tenant, once: its tenant, its row in
 * `beings` (which the patrol's schedule reads) and its two self-parented root clusters,
 * Business and Private. Idempotent, and safe when two writers race (the roots' unique index).
 */
export async function ensureBeing(
  manager: EntityManager,
  tenantId: string,
  agent: string,
): Promise<BeingRoots> {
  await ensureTenant(manager, tenantId);
  await manager.query(
    `INSERT INTO beings (tenant_id, agent) VALUES ($1, $2) ON CONFLICT (tenant_id, agent) DO NOTHING`,
    [tenantId, agent],
  );
  const roots: Array<{ id: string; root: 'business' | 'private' }> = await manager.query(
    `SELECT id::text, root FROM clusters WHERE agent = $1 AND root IS NOT NULL`,
    [agent],
  );
  if (roots.length < 2) {
    await manager.query(
      // nextval in the subquery's select list: once per root (a LATERAL subquery that names
      // no outer column runs once, giving both roots one id).
      `INSERT INTO clusters (id, tenant_id, agent, name, root, parent_id)
         SELECT n.id, $1, $2, n.name, n.root, n.id
           FROM (SELECT nextval(pg_get_serial_sequence('clusters', 'id')) AS id, r.name, r.root
                   FROM (VALUES ('Business', 'business'), ('Private', 'private')) r (name, root)) n
       ON CONFLICT (tenant_id, agent, root) WHERE root IS NOT NULL DO NOTHING`,
      [tenantId, agent],
    );
    roots.splice(
      0,
      roots.length,
      ...(await manager.query(`SELECT id::text, root FROM clusters WHERE agent = $1 AND root IS NOT NULL`, [
        agent,
      ])),
    );
  }
  const of = (root: 'business' | 'private') => roots.find((r) => r.root === root)!.id;
  return { business: of('business'), private: of('private') };
}
