import { isValidToken } from '@engram/contracts';
import { RpcError } from '@engram/messaging';

/** Longest text a profile field, workspace document or skill file may be, in UTF-8 bytes (1 MB). */
export const MAX_CONTENT_BYTES = 1_000_000;
/** Most documents or skill files one request may carry. */
export const MAX_FILES_PER_REQUEST = 1000;
/** Longest file name accepted, in characters. */
export const MAX_NAME_CHARS = 255;

interface FieldViolation {
  readonly field: string;
  readonly description: string;
}

/**
 * Collects every problem of a request, then fails once: INVALID_ARGUMENT with one field
 * violation per problem (as memory_save reports bad input).
 */
export class RequestChecks {
  private readonly problems: FieldViolation[] = [];

  constructor(private readonly what: string) {}

  problem(field: string, description: string): void {
    this.problems.push({ field, description });
  }

  agent(agent: string): void {
    if (agent === '') this.problem('agent', 'agent is required');
    else if (!isValidToken(agent))
      this.problem(
        'agent',
        `agent must be 1-64 letters, digits, "_" or "-" (got ${JSON.stringify(agent.slice(0, 80))})`,
      );
  }

  /** A file name: not empty, not too long, one line. */
  fileName(field: string, name: string): void {
    if (name.trim() === '') this.problem(field, `${field} is empty`);
    else if ([...name].length > MAX_NAME_CHARS)
      this.problem(field, `${field} is longer than ${MAX_NAME_CHARS} characters`);
    else if (/[\r\n]/.test(name) || name.includes('\u0000'))
      this.problem(field, `${field} may not contain line breaks or NUL characters`);
  }

  /** Text Postgres can hold, at most MAX_CONTENT_BYTES long. */
  text(field: string, text: string): void {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > MAX_CONTENT_BYTES)
      this.problem(
        field,
        `${field} is ${bytes} bytes long; at most ${MAX_CONTENT_BYTES} (1 MB) are accepted`,
      );
    if (text.includes('\u0000')) this.problem(field, `${field} may not contain NUL characters`);
  }

  count(field: string, n: number): void {
    if (n > MAX_FILES_PER_REQUEST)
      this.problem(field, `at most ${MAX_FILES_PER_REQUEST} ${field} per request (got ${n})`);
  }

  /** Throws the collected problems, if any. */
  done(): void {
    if (this.problems.length === 0) return;
    throw RpcError.invalidArgument(
      `invalid ${this.what}: ${this.problems.map((p) => p.description).join('; ')}`,
      {
        fieldViolations: this.problems.slice(0, 100),
      },
    );
  }
}
