import { CommanderError } from 'commander';
import { ConnectionError } from '@nats-io/transport-node';
import { ConfigError } from '@engram/config';
import { isValidToken } from '@engram/contracts';
import { RpcError } from '@engram/messaging';

/** Exit codes of the engram command: 1 when Engram cannot answer (or failed), 2 when the input was wrong. */
export const EXIT_UNAVAILABLE = 1;
export const EXIT_BAD_INPUT = 2;

/** What the user typed cannot be run (an option's value, a file's content): exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The service refused what it was asked because of the request itself: the caller must change it. */
const BAD_INPUT_CODES: ReadonlySet<string> = new Set([
  'INVALID_ARGUMENT',
  'NOT_FOUND',
  'FAILED_PRECONDITION',
]);

/** What a failure says on stderr, and the exit code it ends with. */
export interface Failure {
  readonly lines: readonly string[];
  readonly exitCode: number;
}

/** "field: description" for each field violation an RpcError carries. */
export function fieldViolations(error: RpcError): string[] {
  const violations = error.details['fieldViolations'];
  if (!Array.isArray(violations)) return [];
  return violations.map((v: { field?: string; description?: string }) =>
    v.field ? `${v.field}: ${v.description ?? 'invalid'}` : (v.description ?? 'invalid'),
  );
}

/**
 * How the engram command reports a failure: one way for every command. A refused request
 * (INVALID_ARGUMENT with each field violation, NOT_FOUND, FAILED_PRECONDITION), a bad option or
 * file exits 2; Engram unreachable, busy, late or failing exits 1, saying what to check.
 * Commander has printed its own usage errors already; they only set the exit code.
 */
export function failureOf(error: unknown): Failure {
  if (error instanceof CommanderError)
    return { lines: [], exitCode: error.exitCode === 0 ? 0 : EXIT_BAD_INPUT };
  if (error instanceof UsageError) return { lines: [`engram: ${error.message}`], exitCode: EXIT_BAD_INPUT };
  if (error instanceof ConfigError) return { lines: [error.message], exitCode: EXIT_UNAVAILABLE };
  if (error instanceof ConnectionError)
    return {
      lines: [
        `engram: cannot reach NATS (${error.message}): is Engram running (npm start) and NATS_URL right?`,
      ],
      exitCode: EXIT_UNAVAILABLE,
    };
  if (error instanceof RpcError) {
    const violations = fieldViolations(error);
    const lines = [`engram: ${error.code}: ${error.message}`, ...violations.map((v) => `  ${v}`)];
    if (error.code === 'UNAVAILABLE') lines.push('  is the service that answers it running (npm start)?');
    return { lines, exitCode: BAD_INPUT_CODES.has(error.code) ? EXIT_BAD_INPUT : EXIT_UNAVAILABLE };
  }
  return {
    lines: [`engram: ${error instanceof Error ? error.message : String(error)}`],
    exitCode: EXIT_UNAVAILABLE,
  };
}

/** A tenant or agent as the subjects carry it: a UsageError otherwise (it would name no subject). */
export function checkToken(value: string, option: string): string {
  if (!isValidToken(value))
    throw new UsageError(`${option} must be 1-64 letters, digits, "_" or "-" (got ${JSON.stringify(value)})`);
  return value;
}
