import type { JsonObject } from '@bufbuild/protobuf';
import { z } from 'zod';
import { isValidToken } from '../subjects';
import { isRowId } from '../values/row-id';
import { rule } from './request-rules';

/** Longest text a profile field, workspace document or skill file may be, in UTF-8 bytes (1 MB). */
export const MAX_CONTENT_BYTES = 1_000_000;
/** Most documents or skill files one request may carry. */
export const MAX_FILES_PER_REQUEST = 1000;
/** Longest file name accepted, in characters. */
export const MAX_NAME_CHARS = 255;

/** A value as a description quotes it: JSON, cut at 80 characters. */
export const quoted = (value: string) => JSON.stringify(value.slice(0, 80));

function tokenProblem(value: string, field: string): string | undefined {
  return isValidToken(value)
    ? undefined
    : `${field} must be 1-64 letters, digits, "_" or "-" (got ${quoted(value)})`;
}

/** An agent name (or tenant id): required, and a NATS subject token. */
export const token = () =>
  rule(z.string(), (value, field) => (value === '' ? `${field} is required` : tokenProblem(value, field)));

/** A token, or empty for none. */
export const optionalToken = () =>
  rule(z.string(), (value, field) => (value === '' ? undefined : tokenProblem(value, field)));

/** The id of a row (`what`: conversation, message, fact), or empty for none unless required. */
export const rowId = (what: string, options: { required?: boolean } = {}) =>
  rule(z.string(), (value, field) => {
    if (value === '') return options.required ? `${field} is required` : undefined;
    return isRowId(value) ? undefined : `${quoted(value)} is not a ${what} id`;
  });

/** Text Postgres can hold (no NUL), at most MAX_CONTENT_BYTES long. */
export const text = () => rule(z.string(), textProblem);

export function textProblem(value: string, field: string): string | undefined {
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > MAX_CONTENT_BYTES)
    return `${field} is ${bytes} bytes long; at most ${MAX_CONTENT_BYTES} (1 MB) are accepted`;
  if (value.includes('\u0000')) return `${field} may not contain NUL characters`;
  return undefined;
}

/** A file name: not empty, not too long, one line. */
export const fileName = () =>
  rule(z.string(), (name, field) => {
    if (name.trim() === '') return `${field} is empty`;
    if ([...name].length > MAX_NAME_CHARS) return `${field} is longer than ${MAX_NAME_CHARS} characters`;
    if (/[\r\n]/.test(name) || name.includes('\u0000'))
      return `${field} may not contain line breaks or NUL characters`;
    return undefined;
  });

/** At most MAX_FILES_PER_REQUEST items. */
export const fileList = <T>(item: z.ZodType<T, T>) =>
  rule(z.array(item), (list, field) =>
    list.length > MAX_FILES_PER_REQUEST
      ? `at most ${MAX_FILES_PER_REQUEST} ${field} per request (got ${list.length})`
      : undefined,
  );

/** One of `values`, or empty for the default. */
export const oneOf = (values: readonly string[]) =>
  rule(z.string(), (value, field) =>
    value === '' || values.includes(value)
      ? undefined
      : `${field} must be one of ${values.join(', ')} (got ${quoted(value)})`,
  );

/** Largest metadata object kept with a fact, as JSON in UTF-8 bytes. */
export const MAX_METADATA_BYTES = 16_384;

/** A caller's metadata object: at most MAX_METADATA_BYTES as JSON, and no NUL (Postgres' jsonb cannot hold one). */
export const metadata = () =>
  rule(z.custom<JsonObject>().optional(), (value, field) => {
    if (value === undefined) return undefined;
    const json = JSON.stringify(value);
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > MAX_METADATA_BYTES)
      return `${field} is ${bytes} bytes as JSON; at most ${MAX_METADATA_BYTES} are accepted`;
    if (json.includes('\\u0000')) return `${field} may not contain NUL characters`;
    return undefined;
  });
