import type { StatementRunner } from '@engram/search';
import type { EntityManager, TenantTransactions } from '@engram/store';

/** Runs libs/search's statements in `manager`'s transaction (confined to its tenant). */
export function statementRunner(manager: EntityManager): StatementRunner {
  return (statement) => manager.query(statement.text, statement.values);
}

/**
 * Runs each of libs/search's statements alone as the tenant, in one round trip and without a
 * transaction (TenantTransactions.readAsTenant): for reads whose statements stand alone.
 */
export function tenantStatementRunner(transactions: TenantTransactions, tenantId: string): StatementRunner {
  return (statement) => transactions.readAsTenant(tenantId, statement.text, statement.values);
}
