import type { ItemKind } from '../ranking/candidate';

/** Where a search looks: the tenant's memory, narrowed by the request's filters. */
export interface SearchScope {
  readonly tenantId: string;
  readonly agent?: string;
  readonly channel?: string;
  readonly conversationId?: string;
  /** Messages only: a role filter leaves summaries and facts out. */
  readonly roles?: readonly string[];
  readonly from?: Date;
  readonly to?: Date;
  readonly kinds: readonly ItemKind[];
}

export interface Statement {
  readonly text: string;
  readonly values: unknown[];
}

/** Collects positional parameters while a statement is written. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The scope as a predicate on one kind's table (aliased `alias`): agent, channel,
 * conversation, roles and time. Time means when it was said for a message, the span
 * covered for a summary, and since when it holds for a fact.
 */
export function scopePredicate(kind: ItemKind, alias: string, scope: SearchScope, params: Params): string {
  // Decided before any parameter is added: a statement must use every parameter it carries.
  if (scope.roles && scope.roles.length > 0 && kind !== 'message') return 'false';
  const where: string[] = [];
  if (scope.agent) where.push(`${alias}.agent = ${params.add(scope.agent)}`);
  if (scope.conversationId) where.push(`${alias}.conversation_id = ${params.add(scope.conversationId)}`);
  if (scope.channel) {
    where.push(
      `${alias}.conversation_id IN (SELECT id FROM conversations WHERE channel = ${params.add(scope.channel)})`,
    );
  }
  if (scope.roles && scope.roles.length > 0) {
    where.push(`${alias}.role = ANY(${params.add(scope.roles)}::text[])`);
  }
  const [start, end] =
    kind === 'message'
      ? ['created_at', 'created_at']
      : kind === 'summary'
        ? ['latest_at', 'earliest_at']
        : ['valid_from', 'valid_from'];
  if (scope.from) where.push(`${alias}.${start} >= ${params.add(scope.from.toISOString())}`);
  if (scope.to) where.push(`${alias}.${end} <= ${params.add(scope.to.toISOString())}`);
  return where.length > 0 ? where.join(' AND ') : 'true';
}
