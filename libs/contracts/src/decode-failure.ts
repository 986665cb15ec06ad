import { fromJson, type DescField, type DescMessage, type JsonValue } from '@bufbuild/protobuf';
import { protobufReason } from './codec';
import type { FieldViolation } from './requests/request-rules';

type JsonObject = { [key: string]: JsonValue };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value as a violation quotes it: its JSON, cut at 80 characters. */
const shown = (value: JsonValue) => (JSON.stringify(value) ?? String(value)).slice(0, 80);

/**
 * The field of a request's protobuf JSON that its message cannot take, as a field violation
 * (`asOf must be an RFC 3339 date-time …`), for a payload that failed to decode: protobuf-es
 * says what it could not read but not where, so each field is decoded on its own, and a
 * nested message's fields in turn. Null when the payload is not a JSON object, or no single
 * field is to blame.
 */
export function undecodableField(schema: DescMessage, data: Uint8Array): FieldViolation | null {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch {
    return null;
  }
  return isObject(json) ? blame(schema, json, '') : null;
}

function blame(schema: DescMessage, json: JsonObject, prefix: string): FieldViolation | null {
  for (const [key, value] of Object.entries(json)) {
    const field = schema.fields.find((f) => f.jsonName === key || f.name === key);
    const path = `${prefix}${key}`;
    if (!field) return { field: path, description: `${path} is not a field of ${schema.name}` };
    const reason = decodeProblem(schema, { [key]: value });
    if (reason === null) continue;
    return nested(field, value, path) ?? { field: path, description: describe(field, path, value, reason) };
  }
  return null;
}

/** A failing message (or list item) blamed on its own field, when one is to blame. */
function nested(field: DescField, value: JsonValue, path: string): FieldViolation | null {
  if (field.fieldKind === 'message' && !isWellKnown(field.message) && isObject(value))
    return blame(field.message, value, `${path}.`);
  if (field.fieldKind === 'list' && field.listKind === 'message' && Array.isArray(value)) {
    const item = value.findIndex((v) => decodeProblem(field.message, v) !== null);
    const bad = value[item];
    if (item >= 0 && !isWellKnown(field.message) && isObject(bad))
      return blame(field.message, bad, `${path}[${item}].`);
  }
  return null;
}

function describe(field: DescField, path: string, value: JsonValue, reason: string): string {
  if (field.fieldKind === 'message' && field.message.typeName === 'google.protobuf.Timestamp')
    return `${path} must be an RFC 3339 date-time such as "2026-03-01T12:00:00Z" (got ${shown(value)})`;
  return `${path} cannot be read: ${reason}`;
}

function decodeProblem(schema: DescMessage, json: JsonValue): string | null {
  try {
    fromJson(schema, json);
    return null;
  } catch (error) {
    return protobufReason(error);
  }
}

/** Messages whose JSON is not an object of their fields (Timestamp is a string, Struct any object …). */
const isWellKnown = (desc: DescMessage) => desc.typeName.startsWith('google.protobuf.');
