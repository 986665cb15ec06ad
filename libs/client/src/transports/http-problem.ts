import { parseRetryAfterMs } from '@engram/inference';
import { engramError, type EngramError, type FieldViolation } from '../errors';

/** The code an HTTP status stands for when the body does not name one (a proxy's HTML page, an empty 503). */
const CODE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  412: 'FAILED_PRECONDITION',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The fields of an RFC 9457 problem the api edge sends (`code` is the gRPC canonical name). */
interface Problem {
  readonly type?: unknown;
  readonly title?: unknown;
  readonly status?: unknown;
  readonly detail?: unknown;
  readonly code?: unknown;
  readonly errors?: unknown;
}

/**
 * The EngramError of a failed HTTP answer: the problem+json body's `code` (else the status's),
 * its `detail` (else `title`, else the status line) as the reason, `errors[{field, detail}]`
 * as field violations, and `Retry-After` (seconds or an HTTP date) as retryAfterMs.
 */
export function problemError(
  status: number,
  body: string,
  headers: { get(name: string): string | null },
  where: string,
  now: number = Date.now(),
): EngramError {
  const problem = parseProblem(body);
  const code =
    typeof problem.code === 'string' && problem.code !== ''
      ? problem.code
      : (CODE_OF_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'UNKNOWN'));
  const reason =
    textOf(problem.detail) ?? textOf(problem.title) ?? (body.trim().slice(0, 200) || `HTTP ${status}`);
  const details: Record<string, unknown> = { status };
  for (const key of ['type', 'title', 'errors'] as const)
    if (problem[key] !== undefined) details[key] = problem[key];
  const retryAfterMs = parseRetryAfterMs(headers.get('retry-after') ?? undefined, now);
  return engramError(code, reason, details, {
    where,
    fieldViolations: violationsOf(problem.errors),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

function parseProblem(body: string): Problem {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Problem) : {};
  } catch {
    return {};
  }
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** `errors: [{field, detail}]` → field violations; entries of another shape are left out. */
function violationsOf(errors: unknown): FieldViolation[] {
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((entry: unknown) => {
    const { field, detail } = (entry ?? {}) as { field?: unknown; detail?: unknown };
    return typeof field === 'string' && typeof detail === 'string' ? [{ field, description: detail }] : [];
  });
}
