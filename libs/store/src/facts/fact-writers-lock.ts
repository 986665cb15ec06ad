import type { EntityManager } from 'typeorm';

/** The advisory lock key of one agent's fact writers. */
export const factWritersLockKey = (tenantId: string, agent: string) => `facts/${tenantId}/${agent}`;

/**
 * Serialises the writers of one agent's facts (ingest's tags, saves, forgets …) until
 * the caller's transaction ends: what one writer read as the agent's open facts stays
 * true until it committed, so two replicas cannot both add the same fact.
 */
export async function lockFactWriters(
  manager: EntityManager,
  tenantId: string,
  agent: string,
): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
    factWritersLockKey(tenantId, agent),
  ]);
}
