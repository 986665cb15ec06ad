import { RpcErrorCodes } from '@engram/contracts';
import { RpcError } from '@engram/messaging';

/** One bad field of a request, as problem+json lists it. */
export interface FieldProblem {
  readonly field: string;
  readonly detail: string;
}

/** An RFC 9457 problem detail, with Engram's error code and, for a bad request, each bad field. */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  /** gRPC's canonical name where one exists (INVALID_ARGUMENT, NOT_FOUND …), else the HTTP one. */
  readonly code: string;
  readonly errors?: readonly FieldProblem[];
}

/** The codes the edge answers with, beyond the RPCs' own: each with its HTTP status. */
export const HTTP_ERROR_CODES = {
  ...RpcErrorCodes,
  UNAUTHENTICATED: 401,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
} as const;

export type HttpErrorCode = keyof typeof HTTP_ERROR_CODES;

const CODE_BY_STATUS: ReadonlyMap<number, HttpErrorCode> = new Map(
  (Object.entries(HTTP_ERROR_CODES) as Array<[HttpErrorCode, number]>).map(([code, status]) => [
    status,
    code,
  ]),
);

/** An error the edge itself answers (no RPC behind it): a code, a message, headers to send. */
export class ApiProblem extends Error {
  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly errors?: readonly FieldProblem[],
  ) {
    super(message);
  }
}

/** "INVALID_ARGUMENT" → "Invalid argument". */
const titleOf = (code: string) => code.charAt(0) + code.slice(1).toLowerCase().replaceAll('_', ' ');

export function problem(code: HttpErrorCode, detail: string, errors?: readonly FieldProblem[]): Problem {
  return {
    type: `urn:engram:problem:${code.toLowerCase().replaceAll('_', '-')}`,
    title: titleOf(code),
    status: HTTP_ERROR_CODES[code],
    detail,
    code,
    ...(errors && errors.length > 0 && { errors }),
  };
}

/** The field violations an RPC error carries (details.fieldViolations), as problem fields. */
function fieldProblemsOf(details: Record<string, unknown>): FieldProblem[] | undefined {
  const violations = details.fieldViolations;
  if (!Array.isArray(violations)) return undefined;
  return violations.map((v: { field?: unknown; description?: unknown }) => ({
    field: String(v.field ?? ''),
    detail: String(v.description ?? ''),
  }));
}

/** Fastify's own errors (body parsing and size) carry a statusCode and an FST_ code. */
interface HttpServerError {
  readonly statusCode: number;
  readonly code?: string;
  readonly message: string;
}

function isHttpServerError(error: unknown): error is HttpServerError {
  return (
    error instanceof Error &&
    typeof (error as Partial<HttpServerError>).statusCode === 'number' &&
    ((error as Partial<HttpServerError>).code ?? '').startsWith('FST_')
  );
}

/** Nest's HttpException, without importing Nest into this pure module. */
interface NestHttpError {
  getStatus(): number;
  message: string;
}

function isNestHttpError(error: unknown): error is NestHttpError {
  return error instanceof Error && typeof (error as Partial<NestHttpError>).getStatus === 'function';
}

/**
 * What any failure becomes on the wire: an RPC's error keeps its code and violations, the
 * edge's own and the HTTP server's keep their status, and anything unexpected is INTERNAL
 * without its text (it is logged, not shown).
 */
export function problemOf(error: unknown): Problem {
  if (error instanceof ApiProblem) return problem(error.code, error.message, error.errors);
  if (error instanceof RpcError) return problem(error.code, error.message, fieldProblemsOf(error.details));
  if (isHttpServerError(error) || isNestHttpError(error)) {
    const status = isHttpServerError(error) ? error.statusCode : error.getStatus();
    const code = CODE_BY_STATUS.get(status) ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
    return problem(code, status >= 500 ? 'internal error' : error.message);
  }
  return problem('INTERNAL', 'internal error');
}
