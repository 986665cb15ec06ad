import type { JsonObject, JsonValue } from '@bufbuild/protobuf';

/**
 * A task's request as CompleteRequest.task_input (a google.protobuf.Struct): checked to be
 * JSON on the way, so a value JSON cannot carry (a Date, a function, NaN) fails here, naming
 * its field, instead of arriving changed. Properties set to undefined are left out, as in JSON.
 */
export function taskInputStruct(request: object): JsonObject {
  return objectOf(request, 'taskInput');
}

function objectOf(value: object, path: string): JsonObject {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw notJson(path, value);
  const out: JsonObject = {};
  for (const [key, field] of Object.entries(value)) {
    if (field !== undefined) out[key] = jsonOf(field, `${path}.${key}`);
  }
  return out;
}

function jsonOf(value: unknown, path: string): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw notJson(path, value);
    return value;
  }
  if (Array.isArray(value)) return value.map((item, i) => jsonOf(item, `${path}[${i}]`));
  if (typeof value === 'object') return objectOf(value, path);
  throw notJson(path, value);
}

function notJson(path: string, value: unknown): TypeError {
  const what = typeof value === 'object' ? (value?.constructor?.name ?? 'object') : String(value);
  return new TypeError(`${path} is not JSON (${what})`);
}
