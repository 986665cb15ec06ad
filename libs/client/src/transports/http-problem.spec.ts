import {
  EngramDeadlineExceededError,
  EngramError,
  EngramFailedPreconditionError,
  EngramInternalError,
  EngramInvalidArgumentError,
  EngramNotFoundError,
  EngramPayloadTooLargeError,
  EngramPermissionDeniedError,
  EngramRateLimitedError,
  EngramUnauthenticatedError,
  EngramUnavailableError,
} from '../errors';
import { problemError } from './http-problem';

const WHERE = 'http://127.0.0.1:8080';
const headers = (values: Record<string, string> = {}) => ({
  get: (name: string) => values[name.toLowerCase()] ?? null,
});
const problem = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'about:blank', title: code, status, detail, code, ...extra });

describe("problemError (the api edge's RFC 9457 bodies)", () => {
  it.each([
    [400, 'INVALID_ARGUMENT', EngramInvalidArgumentError],
    [401, 'UNAUTHENTICATED', EngramUnauthenticatedError],
    [403, 'PERMISSION_DENIED', EngramPermissionDeniedError],
    [404, 'NOT_FOUND', EngramNotFoundError],
    [412, 'FAILED_PRECONDITION', EngramFailedPreconditionError],
    [413, 'PAYLOAD_TOO_LARGE', EngramPayloadTooLargeError],
    [429, 'RESOURCE_EXHAUSTED', EngramRateLimitedError],
    [500, 'INTERNAL', EngramInternalError],
    [503, 'UNAVAILABLE', EngramUnavailableError],
    [504, 'DEADLINE_EXCEEDED', EngramDeadlineExceededError],
  ])('maps %i %s to its class', (status, code, type) => {
    const error = problemError(status, problem(status, code, `${code} happened`), headers(), WHERE);
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(EngramError);
    expect(error.code).toBe(code);
    expect(error.reason).toBe(`${code} happened`);
  });

  it('lists each bad field of a 400 as a field violation', () => {
    const body = problem(400, 'INVALID_ARGUMENT', 'invalid SearchRequest: topK must be at most 100', {
      errors: [
        { field: 'topK', detail: 'topK must be at most 100' },
        { field: 'filters.conversationId', detail: 'filters.conversationId is not a row id' },
      ],
    });
    const error = problemError(400, body, headers(), WHERE) as EngramInvalidArgumentError;

    expect(error.fieldViolations).toEqual([
      { field: 'topK', description: 'topK must be at most 100' },
      { field: 'filters.conversationId', description: 'filters.conversationId is not a row id' },
    ]);
    expect(error.message).toBe(
      'invalid SearchRequest: topK must be at most 100 (fix topK, filters.conversationId and send it again)',
    );
    expect(error.details).toMatchObject({ status: 400, type: 'about:blank', errors: expect.any(Array) });
  });

  it('reads how long to wait from Retry-After, in seconds or as a date', () => {
    const limited = problemError(
      429,
      problem(429, 'RESOURCE_EXHAUSTED', 'rate limit exceeded'),
      headers({ 'retry-after': '7' }),
      WHERE,
    ) as EngramRateLimitedError;
    expect(limited.retryAfterMs).toBe(7_000);
    expect(limited.message).toBe('rate limit exceeded (slow down: try again in 7 s)');

    const now = Date.parse('2026-11-23T12:00:00Z');
    const byDate = problemError(
      429,
      problem(429, 'RESOURCE_EXHAUSTED', 'rate limit exceeded'),
      headers({ 'retry-after': 'Mon, 23 Nov 2026 12:00:30 GMT' }),
      WHERE,
      now,
    ) as EngramRateLimitedError;
    expect(byDate.retryAfterMs).toBe(30_000);
  });

  it('says where Engram was looked for when it is unavailable', () => {
    const error = problemError(
      503,
      problem(503, 'UNAVAILABLE', 'no service answers mem.rpc.search.acme'),
      headers(),
      WHERE,
    );
    expect(error.message).toBe(
      'Engram is not reachable at http://127.0.0.1:8080: is it running (`npm start`)? retried 0 times (no service answers mem.rpc.search.acme)',
    );
  });

  it("goes by the status when the body is not a problem (a proxy's page, an empty answer)", () => {
    expect(problemError(502, '<html>Bad Gateway</html>', headers(), WHERE)).toBeInstanceOf(
      EngramUnavailableError,
    );
    expect(problemError(401, '', headers(), WHERE)).toMatchObject({
      code: 'UNAUTHENTICATED',
      reason: 'HTTP 401',
    });
    expect(problemError(418, '{"title":"I am a teapot"}', headers(), WHERE)).toMatchObject({
      code: 'UNKNOWN',
      reason: 'I am a teapot',
    });
    expect(problemError(507, 'disk full', headers(), WHERE)).toBeInstanceOf(EngramInternalError);
  });

  it('keeps only well-formed entries of errors[]', () => {
    const body = problem(400, 'INVALID_ARGUMENT', 'invalid', {
      errors: [{ field: 'agent' }, 'x', null, { field: 'query', detail: 'query is required' }],
    });
    expect((problemError(400, body, headers(), WHERE) as EngramInvalidArgumentError).fieldViolations).toEqual(
      [{ field: 'query', description: 'query is required' }],
    );
  });
});
