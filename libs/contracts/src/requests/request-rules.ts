import {
  create,
  type DescMessage,
  type Message,
  type MessageInitShape,
  type MessageShape,
} from '@bufbuild/protobuf';
import { z } from 'zod';

/**
 * One problem of a request: the field, by the JSON (camelCase) name callers send
 * (`agent`, `filters.conversationId`, `files[2].name`), and what is wrong with it.
 */
export interface FieldViolation {
  readonly field: string;
  readonly description: string;
}

/** What a rule table reads of a message: its fields, each optional (a table rules on the fields it names). */
export type RuleInput<T> = T extends Message
  ? { readonly [K in keyof T as K extends `$${string}` ? never : K]?: RuleInput<T[K]> }
  : T extends readonly (infer E)[]
    ? readonly RuleInput<E>[]
    : T;

/**
 * The rules of an RPC's request: a zod schema over the decoded message, one rule per field
 * it restricts, and refinements over several fields that name the field they blame. Its
 * input type is the message's, so a rule of the wrong type for its field does not compile.
 */
export type RequestRules<S extends DescMessage> = z.ZodType<unknown, RuleInput<MessageShape<S>>>;

/** `files[2].name` for the path ['files', 2, 'name']. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
    .join('')
    .replace(/^\./, '');
}

/**
 * A rule on one value: `problem` says what is wrong with it (undefined when nothing is),
 * in a sentence that names the field (`agent is required`, `documents[1].name is empty`).
 */
export function rule<T>(
  schema: z.ZodType<T, T>,
  problem: (value: T, field: string) => string | undefined,
): z.ZodType<T, T> {
  return schema.refine((value) => problem(value, '') === undefined, {
    error: (issue) => problem(issue.input as T, fieldPath(issue.path ?? [])),
  });
}

/** A message field (absent or not) the rules read without restricting it: a refinement over several fields reads it. */
export function given<T>(): z.ZodType<T | undefined, T | undefined> {
  return z.custom<T>(() => true).optional();
}

/** The request's violations under its rules: at most one per field (the first found), in the order found. */
export function checkRequest<S extends DescMessage>(
  spec: { readonly rules: RequestRules<S> },
  request: MessageShape<S>,
): FieldViolation[] {
  const result = spec.rules.safeParse(request);
  if (result.success) return [];
  const byField = new Map<string, FieldViolation>();
  for (const issue of result.error.issues) {
    const field = fieldPath(issue.path);
    if (!byField.has(field)) byField.set(field, { field, description: issue.message });
  }
  return [...byField.values()];
}

/** The violations of a request built from `init`, as field → description (one entry per bad field). */
export function violationsOf<S extends DescMessage>(
  spec: { readonly request: S; readonly rules: RequestRules<S> },
  init: MessageInitShape<S>,
): Record<string, string> {
  return Object.fromEntries(
    checkRequest(spec, create(spec.request, init)).map((v) => [v.field, v.description]),
  );
}
