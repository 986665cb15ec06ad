import { z } from 'zod';
import { isRowId, isValidToken } from '@engram/contracts';

/**
 * The building blocks of the tools' input schemas. Each is a zod 4 schema (the MCP SDK lists it
 * as JSON Schema and checks every call against it before the tool runs) whose messages read
 * well where the SDK puts them: "Invalid arguments for tool memory_search: <message> at query".
 * What only Engram knows (ids that exist, a regex it will run) is left to the RPC's own rules.
 */

/** A value as a message shows it: its JSON, cut at 40 characters. */
function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 40 ? `${json.slice(0, 40)}…` : json;
}

/** The message of a value of the wrong type: "a value is required" when it is missing. */
function wrongType(expected: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? 'a value is required' : `expected ${expected}, got ${shown(issue.input)}`;
}

/** Characters as JSON Schema's maxLength counts them: code points, not UTF-16 units. */
const length = (value: string) => [...value].length;

/**
 * Text of at most `max` characters (code points; `max` is also the JSON Schema's maxLength),
 * not blank unless `blank` allows it (an optional text an assistant sends as "" means none).
 */
export function text(description: string, max: number, { blank = false }: { blank?: boolean } = {}) {
  return z
    .string({ error: wrongType('text') })
    .refine((value) => blank || value.trim() !== '', { error: 'may not be empty' })
    .refine((value) => length(value) <= max, {
      error: (issue) => `${length(issue.input as string)} characters is too long: at most ${max}`,
    })
    .meta({ description, ...(!blank && { minLength: 1 }), maxLength: max });
}

/** A whole number between min and max. */
export function integer(description: string, min: number, max: number) {
  return z
    .number({ error: wrongType('a number') })
    .int({ error: (issue) => `expected a whole number, got ${shown(issue.input)}` })
    .min(min, { error: (issue) => `expected at least ${min}, got ${shown(issue.input)}` })
    .max(max, { error: (issue) => `expected at most ${max}, got ${shown(issue.input)}` })
    .describe(description);
}

/** One of a closed list of words. */
export function choice<const T extends readonly [string, ...string[]]>(values: T, description: string) {
  return z
    .enum(values, {
      error: (issue) =>
        issue.input === undefined
          ? 'a value is required'
          : `expected one of ${values.map((v) => JSON.stringify(v)).join(', ')}, got ${shown(issue.input)}`,
    })
    .describe(description);
}

/** A list of 1 to `max` items. */
export function list<T extends z.ZodType>(item: T, description: string, max: number) {
  return z
    .array(item, { error: wrongType('a list') })
    .min(1, { error: 'expected at least one item' })
    .max(max, { error: (issue) => `expected at most ${max} items, got ${(issue.input as unknown[]).length}` })
    .describe(description);
}

/** True or false. */
export function flag(description: string) {
  return z.boolean({ error: wrongType('true or false') }).describe(description);
}

/** A date or date-time without an offset read as UTC (JavaScript reads a date-time without one as local time). */
function utcDate(value: string): Date {
  const offset = /(Z|[+-]\d\d:?\d\d)$/i.test(value);
  return new Date(value.includes('T') && !offset ? `${value}Z` : value);
}

/** A point in time: an ISO 8601 date or date-time ("2024-05-01", "2024-05-01T14:00:00Z"); the tool gets a Date. */
export function instant(description: string) {
  return z
    .string({ error: wrongType('an ISO 8601 date or date-time') })
    .refine((value) => /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(utcDate(value).getTime()), {
      error: (issue) =>
        `expected an ISO 8601 date or date-time like "2024-05-01T14:00:00Z", got ${shown(issue.input)}`,
    })
    .transform(utcDate)
    .meta({
      description: `${description} (ISO 8601, e.g. "2024-05-01" or "2024-05-01T14:00:00Z"; UTC unless it says otherwise)`,
    });
}

/**
 * A tool's arguments: an object that accepts no other keys (JSON Schema
 * `additionalProperties: false`), so a misspelt argument is an error rather than ignored.
 */
export function toolArguments<S extends z.ZodRawShape>(shape: S) {
  const accepted = Object.keys(shape).join(', ') || 'no arguments';
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys')
        return `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}: this tool takes ${accepted}`;
      if (issue.code === 'invalid_type') return `expected an object of arguments (${accepted})`;
      return undefined;
    },
  });
}

/** The id of a `kind` of item as an argument may give it: "12" or the ref "message:12". */
export function bareId(kind: string, value: string): string {
  const trimmed = value.trim();
  return trimmed.startsWith(`${kind}:`) ? trimmed.slice(kind.length + 1) : trimmed;
}

/** The id of one of Engram's rows (a message, fact, conversation …): "12", or its ref "message:12"; the tool gets "12". */
export function rowId(kind: string, description: string) {
  return z
    .string({ error: wrongType(`a ${kind} id`) })
    .refine((value) => isRowId(bareId(kind, value)), {
      error: (issue) => `expected a ${kind} id like "12" or "${kind}:12", got ${shown(issue.input)}`,
    })
    .transform((value) => bareId(kind, value))
    .meta({ description, pattern: `^\\s*(${kind}:)?[0-9]{1,19}\\s*$` });
}

/** An agent's name: 1-64 letters, digits, "_" or "-". */
export function agentName(description: string) {
  return z
    .string({ error: wrongType("an agent's name") })
    .refine(isValidToken, {
      error: (issue) => `expected 1-64 letters, digits, "_" or "-", got ${shown(issue.input)}`,
    })
    .meta({ description, pattern: '^[A-Za-z0-9_-]{1,64}$' });
}
