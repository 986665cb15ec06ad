import {
  DEFAULT_RETRY_SCHEDULE,
  backoffBeforeRetry,
  isRetryableStatus,
  parseRetryAfterMs,
  retryableNetworkCode,
} from './retry-schedule';

describe('backoffBeforeRetry', () => {
  it('waits 5, 10 and 15 s, then gives up', () => {
    expect([1, 2, 3, 4].map((n) => backoffBeforeRetry(n, DEFAULT_RETRY_SCHEDULE))).toEqual([
      5_000,
      10_000,
      15_000,
      undefined,
    ]);
    expect(backoffBeforeRetry(0, DEFAULT_RETRY_SCHEDULE)).toBeUndefined();
  });

  it('honours a longer Retry-After, up to the cap, and never shortens a step', () => {
    expect(backoffBeforeRetry(1, DEFAULT_RETRY_SCHEDULE, 20_000)).toBe(20_000);
    expect(backoffBeforeRetry(1, DEFAULT_RETRY_SCHEDULE, 3_600_000)).toBe(60_000);
    expect(backoffBeforeRetry(2, DEFAULT_RETRY_SCHEDULE, 1_000)).toBe(10_000);
    expect(backoffBeforeRetry(4, DEFAULT_RETRY_SCHEDULE, 1_000)).toBeUndefined();
  });

  it('follows an injected schedule', () => {
    const fast = { delaysMs: [5, 10, 15], retryAfterCapMs: 100 };
    expect([1, 2, 3].map((n) => backoffBeforeRetry(n, fast))).toEqual([5, 10, 15]);
    expect(backoffBeforeRetry(1, fast, 1_000)).toBe(100);
    expect(backoffBeforeRetry(1, { delaysMs: [], retryAfterCapMs: 0 })).toBeUndefined();
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfterMs('7', now)).toBe(7_000);
    expect(parseRetryAfterMs(' 1.5 ', now)).toBe(1_500);
    expect(parseRetryAfterMs('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs(['2', '9'], now)).toBe(2_000);
  });

  it('treats a past date as no wait and nonsense as absent', () => {
    expect(parseRetryAfterMs('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs('-3', now)).toBeUndefined();
    expect(parseRetryAfterMs('', now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe('isRetryableStatus', () => {
  it('retries 429 and 5xx, nothing else', () => {
    expect([429, 500, 502, 503, 504, 599].every(isRetryableStatus)).toBe(true);
    expect([200, 400, 401, 403, 404, 408, 413, 422].some(isRetryableStatus)).toBe(false);
  });
});

describe('retryableNetworkCode', () => {
  const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

  it('recognises refused, reset and closed connections, also nested', () => {
    expect(retryableNetworkCode(withCode('ECONNREFUSED'))).toBe('ECONNREFUSED');
    expect(retryableNetworkCode(withCode('UND_ERR_SOCKET', 'other side closed'))).toBe('UND_ERR_SOCKET');
    expect(retryableNetworkCode(new Error('fetch failed', { cause: withCode('ECONNRESET') }))).toBe(
      'ECONNRESET',
    );
    expect(
      retryableNetworkCode(
        new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect'),
      ),
    ).toBe('ECONNREFUSED');
    expect(retryableNetworkCode(new Error('socket hang up'))).toBe('ECONNRESET');
  });

  it('leaves everything else alone', () => {
    expect(retryableNetworkCode(withCode('UND_ERR_ABORTED'))).toBeUndefined();
    expect(retryableNetworkCode(withCode('UND_ERR_INVALID_ARG'))).toBeUndefined();
    expect(retryableNetworkCode(withCode('UND_ERR_DESTROYED'))).toBeUndefined();
    expect(retryableNetworkCode(new TypeError('x is not a function'))).toBeUndefined();
    expect(retryableNetworkCode('ECONNREFUSED')).toBeUndefined();
  });
});
