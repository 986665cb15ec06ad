import { entityAgent } from '@engram/memory-core';
import { ApiProblem, type FieldProblem } from '../http/problem';

/** Where a mem0 read looks, in Engram's terms; echo holds the entity ids as the caller gave them. */
export interface Mem0Scope {
  /** Engram agents; undefined for every agent of the tenant. */
  readonly agents?: readonly string[];
  /** mem0 run ids (Engram session keys): memories said in any of these runs. */
  readonly runs?: readonly string[];
  readonly from?: Date;
  readonly to?: Date;
  readonly categories?: readonly string[];
  /** Memories whose metadata contains this object. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly echo: { readonly userId?: string; readonly agentId?: string; readonly runId?: string };
}

type Filter = Record<string, unknown>;

const ENTITY_KEYS = ['user_id', 'agent_id'] as const;
const KNOWN_KEYS = new Set([
  ...ENTITY_KEYS,
  'run_id',
  'app_id',
  'created_at',
  'updated_at',
  'categories',
  'metadata',
  'AND',
  'OR',
]);

/** A value of an id condition: "x", {"in": [...]} or "*" (any); undefined means any. */
function idValues(value: unknown, field: string, problems: FieldProblem[]): string[] | undefined {
  if (value === '*') return undefined;
  if (typeof value === 'string' && value !== '') return [value];
  if (typeof value === 'object' && value !== null && Array.isArray((value as { in?: unknown }).in)) {
    const list = (value as { in: unknown[] }).in;
    if (list.every((v) => typeof v === 'string' && v !== '')) return list as string[];
  }
  problems.push({ field, detail: 'must be an id, "*", or {"in": [ids]}' });
  return [];
}

function dateOf(value: unknown, field: string, problems: FieldProblem[]): Date | undefined {
  const date = typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
  if (date && !Number.isNaN(date.getTime())) return date;
  problems.push({ field, detail: 'must be a date (ISO 8601) or epoch milliseconds' });
  return undefined;
}

interface Conjunction {
  users?: string[];
  agents?: string[];
  runs?: string[];
  from?: Date;
  to?: Date;
  categories?: string[];
  metadata?: Record<string, unknown>;
  /** A "*" entity or run condition: names every one. */
  everyEntity?: boolean;
}

/** The conditions of one object of a filter, all of which must hold. */
function conjunction(filter: Filter, path: string, problems: FieldProblem[]): Conjunction {
  const all: Conjunction = {};
  for (const [key, value] of Object.entries(filter)) {
    const field = `${path}${key}`;
    if (!KNOWN_KEYS.has(key)) {
      problems.push({ field, detail: `unknown filter; use ${[...KNOWN_KEYS].join(', ')}` });
    } else if (key === 'user_id' || key === 'agent_id' || key === 'run_id') {
      const ids = idValues(value, field, problems);
      if (ids) all[key === 'user_id' ? 'users' : key === 'agent_id' ? 'agents' : 'runs'] = ids;
      else all.everyEntity = true;
    } else if (key === 'created_at') {
      const range = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
      for (const [op, bound] of Object.entries(range)) {
        if (op === 'gte' || op === 'gt') all.from = dateOf(bound, `${field}.${op}`, problems);
        else if (op === 'lte' || op === 'lt') all.to = dateOf(bound, `${field}.${op}`, problems);
        else problems.push({ field: `${field}.${op}`, detail: 'use gte, gt, lte or lt' });
      }
    } else if (key === 'categories') {
      const list = (value as { in?: unknown; contains?: unknown } | null)?.in ?? [
        (value as { contains?: unknown })?.contains,
      ];
      if (Array.isArray(list) && list.every((c) => typeof c === 'string')) all.categories = list as string[];
      else problems.push({ field, detail: 'must be {"in": [categories]} or {"contains": category}' });
    } else if (key === 'metadata') {
      const wanted = metadataCondition(value, field, problems);
      if (wanted) all.metadata = mergeMetadata(all.metadata, wanted, field, problems);
    } else if (key === 'AND') {
      if (!Array.isArray(value)) problems.push({ field, detail: 'must be a list of filters' });
      else
        value.forEach((f, i) =>
          Object.assign(
            all,
            merge(
              all,
              conjunction(asFilter(f, `${field}[${i}]`, problems), `${field}[${i}].`, problems),
              `${field}[${i}]`,
              problems,
            ),
          ),
        );
    } else if (key === 'OR') {
      Object.assign(all, merge(all, disjunction(value, field, problems), field, problems));
    }
    // app_id and updated_at: accepted and not narrowing (Engram has no apps; updates are new versions).
  }
  return all;
}

function asFilter(value: unknown, field: string, problems: FieldProblem[]): Filter {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Filter;
  problems.push({ field, detail: 'must be an object' });
  return {};
}

/** mem0's comparison operators: a metadata value that is an object of these asks for a comparison. */
const OPERATORS = new Set(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'contains', 'icontains']);

/**
 * A metadata condition as the object memories' metadata must contain: each key with its value
 * (`{"eq": v}` is v). Engram matches metadata by containment, so other operators are refused by name.
 */
function metadataCondition(
  value: unknown,
  field: string,
  problems: FieldProblem[],
): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push({ field, detail: 'must be an object of metadata keys and the values they hold' });
    return undefined;
  }
  const wanted: Record<string, unknown> = {};
  for (const [key, condition] of Object.entries(value)) {
    const operators =
      typeof condition === 'object' && condition !== null && !Array.isArray(condition)
        ? Object.keys(condition).filter((op) => OPERATORS.has(op))
        : [];
    if (operators.length === 0) wanted[key] = condition;
    else if (operators.length === 1 && operators[0] === 'eq' && Object.keys(condition as object).length === 1)
      wanted[key] = (condition as { eq: unknown }).eq;
    else
      problems.push({
        field: `${field}.${key}`,
        detail: `metadata is matched by value (a value or {"eq": value}); ${operators.join(', ')} is not supported`,
      });
  }
  return wanted;
}

/** Both metadata conditions at once; a key asked to hold two different values is a problem. */
function mergeMetadata(
  a: Record<string, unknown> | undefined,
  b: Record<string, unknown>,
  field: string,
  problems: FieldProblem[],
): Record<string, unknown> {
  if (!a) return b;
  for (const [key, value] of Object.entries(b))
    if (key in a && JSON.stringify(a[key]) !== JSON.stringify(value))
      problems.push({ field: `${field}.${key}`, detail: 'asked to hold two different values' });
  return { ...a, ...b };
}

/** Both conjunctions at once: id lists intersect, time ranges narrow, metadata conditions add up. */
function merge(a: Conjunction, b: Conjunction, field: string, problems: FieldProblem[]): Conjunction {
  const both = (x?: string[], y?: string[]) => (x && y ? x.filter((v) => y.includes(v)) : (x ?? y));
  return {
    users: both(a.users, b.users),
    agents: both(a.agents, b.agents),
    runs: both(a.runs, b.runs),
    categories: both(a.categories, b.categories),
    from: a.from && b.from ? new Date(Math.max(+a.from, +b.from)) : (a.from ?? b.from),
    to: a.to && b.to ? new Date(Math.min(+a.to, +b.to)) : (a.to ?? b.to),
    metadata: b.metadata ? mergeMetadata(a.metadata, b.metadata, `${field}.metadata`, problems) : a.metadata,
    everyEntity: a.everyEntity || b.everyEntity,
  };
}

/**
 * OR of filters: Engram answers a union of entities (any of these users or agents); anything
 * else is refused by name.
 */
function disjunction(value: unknown, field: string, problems: FieldProblem[]): Conjunction {
  if (!Array.isArray(value) || value.length === 0) {
    problems.push({ field, detail: 'must be a non-empty list of filters' });
    return {};
  }
  const branches = value.map((f, i) =>
    conjunction(asFilter(f, `${field}[${i}]`, problems), `${field}[${i}].`, problems),
  );
  const kinds = new Set(branches.map((b) => (b.runs ? 'runs' : b.users || b.agents ? 'entities' : 'other')));
  const others = branches.some((b) => b.from || b.to || b.categories || b.metadata);
  if (kinds.size !== 1 || kinds.has('other') || others) {
    problems.push({
      field,
      detail: 'OR may join only user_id/agent_id conditions, or only run_id conditions',
    });
    return {};
  }
  if (kinds.has('runs')) return { runs: branches.flatMap((b) => b.runs!) };
  return { users: branches.flatMap((b) => [...(b.users ?? []), ...(b.agents ?? [])]) };
}

/**
 * A mem0 filter (`{"user_id": …}`, `{"AND": [...]}`, `{"OR": [...]}`, created_at ranges,
 * categories, `{"metadata": {…}}` by value) as an Engram scope. mem0 entities map onto Engram agents: user_id when given (the
 * memory's owner), else agent_id. Unknown keys and unions Engram cannot answer are refused.
 */
export function mem0Scope(filters: unknown, options: { requireEntity: boolean }): Mem0Scope {
  const problems: FieldProblem[] = [];
  const all = conjunction(asFilter(filters ?? {}, 'filters', problems), 'filters.', problems);
  if (
    problems.length === 0 &&
    options.requireEntity &&
    !all.users &&
    !all.agents &&
    !all.runs &&
    !all.everyEntity
  )
    problems.push({ field: 'filters', detail: 'name a user_id, agent_id or run_id (or "*" for every one)' });
  if (problems.length > 0) throw new ApiProblem('INVALID_ARGUMENT', 'invalid filters', {}, problems);
  const owners = all.users ?? all.agents;
  const single = (list?: string[]) => (list?.length === 1 ? list[0] : undefined);
  return {
    ...(owners && { agents: [...new Set(owners.map(entityAgent))] }),
    ...(all.runs && { runs: all.runs }),
    ...(all.from && { from: all.from }),
    ...(all.to && { to: all.to }),
    ...(all.categories && { categories: all.categories }),
    ...(all.metadata && Object.keys(all.metadata).length > 0 && { metadata: all.metadata }),
    echo: { userId: single(all.users), agentId: single(all.agents), runId: single(all.runs) },
  };
}
