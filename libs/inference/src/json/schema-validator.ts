import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import type { JsonSchema } from '../messages/messages';

export type SchemaCheck = { readonly valid: true } | { readonly valid: false; readonly problems: string[] };

const MAX_PROBLEMS = 20;
const MAX_CACHED = 200;

/**
 * Validates model output against a caller's JSON Schema with Ajv. Compiled validators are
 * cached by the schema's text, so a schema used on every call is compiled once. Unknown
 * keywords and formats are tolerated (schemas written for OpenAI's structured outputs use
 * a dialect of their own); everything Ajv knows is enforced.
 */
export class JsonSchemaValidator {
  private draft07?: Ajv;
  private draft2020?: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  /** The schema's compile error, or undefined when it is usable. */
  schemaProblem(schema: JsonSchema): string | undefined {
    try {
      this.validatorFor(schema);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  check(schema: JsonSchema, value: unknown): SchemaCheck {
    const validate = this.validatorFor(schema);
    if (validate(value)) return { valid: true };
    return { valid: false, problems: describeSchemaErrors(validate.errors ?? []) };
  }

  private validatorFor(schema: JsonSchema): ValidateFunction {
    const key = JSON.stringify(schema);
    const cached = this.compiled.get(key);
    if (cached) return cached;
    const validate = this.ajvFor(schema).compile(schema);
    if (this.compiled.size >= MAX_CACHED) this.compiled.delete(this.compiled.keys().next().value as string);
    this.compiled.set(key, validate);
    return validate;
  }

  private ajvFor(schema: JsonSchema): Ajv | Ajv2020 {
    const options = { allErrors: true, strict: false, logger: false, validateFormats: false } as const;
    if (typeof schema.$schema === 'string' && schema.$schema.includes('2020-12')) {
      return (this.draft2020 ??= new Ajv2020(options));
    }
    return (this.draft07 ??= new Ajv(options));
  }
}

/** Ajv's errors as short lines a person or a model can act on: "/age: must be integer". */
export function describeSchemaErrors(errors: readonly ErrorObject[]): string[] {
  const lines = errors.slice(0, MAX_PROBLEMS).map((error) => {
    const where = error.instancePath || '(root)';
    const params = error.params as Record<string, unknown>;
    let detail = error.message ?? error.keyword;
    if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      detail += ` ("${params.additionalProperty}")`;
    } else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      detail += `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    return `${where}: ${detail}`;
  });
  if (errors.length > MAX_PROBLEMS) lines.push(`… and ${errors.length - MAX_PROBLEMS} more`);
  return lines;
}
