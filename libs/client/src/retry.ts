import { EngramUnavailableError } from './errors';

/** How the client asks again when Engram is unavailable (and only then). */
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

/**
 * Runs `attempt`, and again after a backoff while it fails with EngramUnavailableError, at
 * most `policy.retries` more times; the last such failure says how often it retried. Every
 * other failure is thrown at once: a request Engram refused, or that may have taken effect
 * (DEADLINE_EXCEEDED), is never sent twice.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof EngramUnavailableError)) throw error;
      if (retry >= policy.retries) throw error.afterRetries(retry);
      await sleep(backoffDelayMs(retry + 1, policy));
    }
  }
}
