import type { JsonObject, JsonValue } from '@bufbuild/protobuf';

/** Reading the JSON other memory systems export: untyped, so each field is checked as it is read. */

export type JsonRecord = Record<string, unknown>;

/** A file that is not the format it was read as: the whole import stops (exit 2). */
export class NotTheFormat extends Error {
  override readonly name = 'NotTheFormat';
}

/** One record of a file that cannot be imported; the rest of the file still is. */
export class RecordRefused extends Error {
  override readonly name = 'RecordRefused';
}

export const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The file's text as JSON; a file that is JSON text inside a JSON string (as some exports are) is unwrapped once. */
export function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new NotTheFormat(`not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw new NotTheFormat('a JSON string, not an object');
  }
}

/** A string field, trimmed; undefined when absent, null or blank. A value of another type refuses the record. */
export function textOf(record: JsonRecord, key: string): string | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new RecordRefused(`${key} is not text`);
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A list field; undefined when absent or null. */
export function listOf(record: JsonRecord, key: string): unknown[] | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new RecordRefused(`${key} is not a list`);
  return value;
}

/** An object field as protobuf's JsonObject; undefined when absent, null or empty. */
export function objectOf(record: JsonRecord, key: string): JsonObject | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw new RecordRefused(`${key} is not an object`);
  return Object.keys(value).length === 0 ? undefined : (value as JsonObject);
}

/** ISO 8601 with a date and a time but no zone: Python's naive datetimes, which these exports mean as UTC. */
const NAIVE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * A time field: ISO 8601 text (no zone read as UTC) or epoch seconds / milliseconds; undefined
 * when absent. Anything else refuses the record.
 */
export function timeOf(record: JsonRecord, key: string): Date | undefined {
  const value = record[key];
  if (value === undefined || value === null || value === '') return undefined;
  let at = new Date(Number.NaN);
  if (typeof value === 'number') at = new Date(value < 1e12 ? value * 1000 : value);
  else if (typeof value === 'string')
    at = new Date(NAIVE_TIME.test(value.trim()) ? `${value.trim().replace(' ', 'T')}Z` : value);
  if (Number.isNaN(at.getTime())) throw new RecordRefused(`${key} is not a time (${JSON.stringify(value)})`);
  return at;
}

/** How a record is named in a refusal line: its place in the file, and its id when it has one. */
export function recordName(place: string, id: unknown): string {
  return typeof id === 'string' || typeof id === 'number' ? `${place} (id ${id})` : place;
}

/** A JSON object of the fields that have a value: undefined ones and empty lists are left out. */
export function definedFields(fields: Record<string, JsonValue | undefined>): JsonObject {
  return Object.fromEntries(
    Object.entries(fields).filter(
      (entry): entry is [string, JsonValue] =>
        entry[1] !== undefined && !(Array.isArray(entry[1]) && entry[1].length === 0),
    ),
  );
}
