import type { StatementRunner } from '@engram/search';
import type { EntityManager } from '@engram/store';

/** Runs libs/search's statements in `manager`'s transaction (confined to its tenant). */
export function statementRunner(manager: EntityManager): StatementRunner {
  return (statement) => manager.query(statement.text, statement.values);
}
