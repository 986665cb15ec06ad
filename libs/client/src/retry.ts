import { EngramDeadlineExceededError, EngramUnavailableError } from './errors';

/** How the client asks again when Engram is unavailable, or a read was not answered in time. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 3; 0 never retries). */
  readonly retries: number;
  /** The wait before the first retry, doubled before each next one (default 200 ms). */
  readonly baseDelayMs: number;
  /** The longest wait (default 2,000 ms). */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, baseDelayMs: 200, maxDelayMs: 2_000 };

/**
 * The wait before retry number `retry` (1 for the first): exponential, capped, and jittered
 * down to half of it, so clients that failed together do not come back together.
 */
export function backoffDelayMs(
  retry: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const exponential = policy.baseDelayMs * 2 ** Math.min(Math.max(0, retry - 1), 30);
  const capped = Math.min(policy.maxDelayMs, exponential);
  return Math.round(capped * (0.5 + 0.5 * random()));
}

/** What may be asked again: a request nobody took, and, of a read, one whose answer did not come in time. */
export type Retryable = (error: unknown) => boolean;

/** Requests that change memory: only when nobody took them (they may have taken effect otherwise). */
export const unavailableOnly: Retryable = (error) => error instanceof EngramUnavailableError;

/** Reads (RpcSpec.readOnly): also after a timeout, e.g. the replica that took it died; asking twice is harmless. */
export const unavailableOrTimedOut: Retryable = (error) =>
  error instanceof EngramUnavailableError || error instanceof EngramDeadlineExceededError;

/**
 * Runs `attempt`, and again after a backoff while it fails as `retryable` says (by default:
 * EngramUnavailableError only), at most `policy.retries` more times; the last unavailable failure
 * says how often it retried. Every other failure is thrown at once: a request Engram refused,
 * or a write that may have taken effect (DEADLINE_EXCEEDED), is never sent twice.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  retryable: Retryable = unavailableOnly,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!retryable(error)) throw error;
      if (retry >= policy.retries)
        throw error instanceof EngramUnavailableError ? error.afterRetries(retry) : error;
      await sleep(backoffDelayMs(retry + 1, policy));
    }
  }
}
