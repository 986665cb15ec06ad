/**
 * When to ask an inference endpoint again. Failures that say something about the endpoint
 * (unreachable, overloaded, rate limited) are retried on a fixed schedule; failures that say
 * something about the request (any other 4xx) are not.
 */
export interface RetrySchedule {
  /** The wait before each retry; its length is the number of retries after the first attempt. */
  readonly delaysMs: readonly number[];
  /** The longest wait a `Retry-After` header can ask for. */
  readonly retryAfterCapMs: number;
}

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  delaysMs: [5_000, 10_000, 15_000],
  retryAfterCapMs: 60_000,
};

/** Rate limited or a server fault: worth asking again. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** Connection-level failures: nothing (complete) came back, so the request may be sent again. */
const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  // undici: the socket closed or failed mid-request, or connecting took too long
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);
const RETRYABLE_NETWORK_MESSAGES = /socket hang up|other side closed|socket closed/i;

/**
 * The network error code that makes this failure retryable, looking through `cause` and an
 * AggregateError's `errors` (a connect to "localhost" tries ::1 and 127.0.0.1); undefined when
 * the failure is not a connection-level one.
 */
export function retryableNetworkCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 4) return undefined;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && RETRYABLE_NETWORK_CODES.has(code)) return code;
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const found = retryableNetworkCode(inner, depth + 1);
      if (found) return found;
    }
  }
  if (cause !== undefined && cause !== error) {
    const found = retryableNetworkCode(cause, depth + 1);
    if (found) return found;
  }
  if (typeof message === 'string' && RETRYABLE_NETWORK_MESSAGES.test(message)) {
    return typeof code === 'string' ? code : 'ECONNRESET';
  }
  return undefined;
}

/**
 * A `Retry-After` header in milliseconds: delta-seconds ("120") or an HTTP date. Undefined
 * when absent or unreadable; a date in the past is 0.
 */
export function parseRetryAfterMs(
  header: string | readonly string[] | undefined,
  now: number = Date.now(),
): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const at = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN; // an HTTP date names its day and month
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * How long to wait after `failedAttempts` failed attempts (1 for the first failure), or
 * undefined when the schedule has no retry left. A `Retry-After` longer than the scheduled
 * step is honoured, up to the cap; a shorter one does not shorten the step.
 */
export function backoffBeforeRetry(
  failedAttempts: number,
  schedule: RetrySchedule,
  retryAfterMs?: number,
): number | undefined {
  const step = schedule.delaysMs[failedAttempts - 1];
  if (step === undefined || failedAttempts < 1) return undefined;
  if (retryAfterMs === undefined || retryAfterMs <= step) return step;
  return Math.max(step, Math.min(retryAfterMs, schedule.retryAfterCapMs));
}
