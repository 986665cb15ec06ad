import type { JsonObject } from './item-fact';

/** LangGraph's comparison operators (InMemoryStore's `compareValues`). */
const OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']);

type Comparison = Readonly<Record<string, unknown>>;

/** A LangGraph filter split by who answers it. */
export interface SplitFilter {
  /** Equalities, answered by Engram as JSON containment of the value. */
  readonly contained: JsonObject;
  /** Comparisons (`$ne`, `$gt` …), checked on each item read. */
  readonly compared: ReadonlyArray<readonly [field: string, comparison: Comparison]>;
}

const isComparison = (filter: unknown): filter is Comparison =>
  typeof filter === 'object' &&
  filter !== null &&
  !Array.isArray(filter) &&
  Object.keys(filter).every((op) => OPERATORS.has(op));

/**
 * Splits a search filter: a field equal to a value (or `{ $eq: value }` alone) goes to Engram as
 * containment, which for a string, number, boolean or null is equality; every other comparison
 * is left to `matches`.
 */
export function splitFilter(filter: Record<string, unknown> = {}): SplitFilter {
  const contained: JsonObject = {};
  const compared: Array<readonly [string, Comparison]> = [];
  for (const [field, wanted] of Object.entries(filter)) {
    if (!isComparison(wanted)) contained[field] = wanted as JsonObject[string];
    else if (Object.keys(wanted).length === 1 && '$eq' in wanted)
      contained[field] = wanted['$eq'] as JsonObject[string];
    else compared.push([field, wanted]);
  }
  return { contained, compared };
}

/** Whether an item's value passes every comparison, as InMemoryStore compares. */
export function matches(value: Record<string, unknown>, compared: SplitFilter['compared']): boolean {
  return compared.every(([field, comparison]) =>
    Object.entries(comparison).every(([op, operand]) => compare(value[field], op, operand)),
  );
}

function compare(actual: unknown, op: string, operand: unknown): boolean {
  switch (op) {
    case '$eq':
      return actual === operand;
    case '$ne':
      return actual !== operand;
    case '$gt':
      return Number(actual) > Number(operand);
    case '$gte':
      return Number(actual) >= Number(operand);
    case '$lt':
      return Number(actual) < Number(operand);
    case '$lte':
      return Number(actual) <= Number(operand);
    case '$in':
      return Array.isArray(operand) && operand.includes(actual);
    default: // $nin
      return !Array.isArray(operand) || !operand.includes(actual);
  }
}
