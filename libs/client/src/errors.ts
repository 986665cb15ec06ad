/**
 * What went wrong, as Engram says it: the gRPC canonical code of the RPC error (NATS) or of
 * the problem+json body (HTTP), plus the two codes only the HTTP edge answers
 * (UNAUTHENTICATED, PAYLOAD_TOO_LARGE). UNKNOWN is a code this client does not know.
 */
export type EngramErrorCode =
  | 'INVALID_ARGUMENT'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'FAILED_PRECONDITION'
  | 'PAYLOAD_TOO_LARGE'
  | 'RESOURCE_EXHAUSTED'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  | 'DEADLINE_EXCEEDED'
  | 'UNKNOWN';

/** One bad field of a request, by the JSON name it was sent under (`filters.conversationId`). */
export interface FieldViolation {
  readonly field: string;
  readonly description: string;
}

/**
 * Every failure of an Engram call. `reason` is Engram's own sentence; `message` adds what
 * to do about it; `details` is what Engram sent beside it (limits, the subject, the problem
 * body …). Each code has its subclass, so `instanceof` picks the case to handle.
 */
export class EngramError extends Error {
  override readonly name: string = 'EngramError';
  constructor(
    readonly code: EngramErrorCode,
    readonly reason: string,
    advice: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(advice ? `${reason} (${advice})` : reason);
  }
}

/** The request is wrong: nothing was done. Each bad field is in `fieldViolations`. */
export class EngramInvalidArgumentError extends EngramError {
  override readonly name: string = 'EngramInvalidArgumentError';
  constructor(
    reason: string,
    readonly fieldViolations: readonly FieldViolation[] = [],
    details: Readonly<Record<string, unknown>> = {},
  ) {
    super(
      'INVALID_ARGUMENT',
      reason,
      fieldViolations.length > 0
        ? `fix ${fieldViolations.map((v) => v.field).join(', ')} and send it again`
        : 'fix the request and send it again',
      details,
    );
  }
}

/** The API key is missing, unknown or revoked. */
export class EngramUnauthenticatedError extends EngramError {
  override readonly name: string = 'EngramUnauthenticatedError';
  constructor(reason: string, details: Readonly<Record<string, unknown>> = {}) {
    super(
      'UNAUTHENTICATED',
      reason,
      'check the API key; create one with `npm run engram -- apikey create --tenant <tenant>`',
      details,
    );
  }
}

/** The key is valid but may not do this. */
export class EngramPermissionDeniedError extends EngramError {
  override readonly name: string = 'EngramPermissionDeniedError';
  constructor(reason: string, details: Readonly<Record<string, unknown>> = {}) {
    super('PERMISSION_DENIED', reason, 'this key or tenant may not do this', details);
  }
}

/** What the request names (an agent, a conversation, a fact, a being …) does not exist. */
export class EngramNotFoundError extends EngramError {
  override readonly name: string = 'EngramNotFoundError';
  constructor(reason: string, details: Readonly<Record<string, unknown>> = {}) {
    super('NOT_FOUND', reason, 'check the id or the agent it belongs to', details);
  }
}

/** The request is valid but the state does not allow it now (e.g. a patrol already running). */
export class EngramFailedPreconditionError extends EngramError {
  override readonly name: string = 'EngramFailedPreconditionError';
  constructor(reason: string, details: Readonly<Record<string, unknown>> = {}) {
    super('FAILED_PRECONDITION', reason, 'valid, but not now: see details', details);
  }
}

/** The body is larger than the HTTP edge accepts. */
export class EngramPayloadTooLargeError extends EngramError {
  override readonly name: string = 'EngramPayloadTooLargeError';
  constructor(reason: string, details: Readonly<Record<string, unknown>> = {}) {
    super('PAYLOAD_TOO_LARGE', reason, 'send less: split it into smaller requests', details);
  }
}

/** Too many requests (the key's rate limit, or a service's queue is full). Never retried by the client. */
export class EngramRateLimitedError extends EngramError {
  override readonly name: string = 'EngramRateLimitedError';
  constructor(
    reason: string,
    /** How long Engram asked to wait (HTTP `Retry-After`); undefined when it did not say. */
    readonly retryAfterMs?: number,
    details: Readonly<Record<string, unknown>> = {},
  ) {
    super(
      'RESOURCE_EXHAUSTED',
      reason,
      retryAfterMs === undefined
        ? 'Engram is busy: slow down and try again later'
        : `slow down: try again in ${Math.ceil(retryAfterMs / 1000)} s`,
      details,
    );
  }
}

/**
 * Engram could not be reached, or the service behind the call is down. Retried with backoff
 * (as a read's timeout is); this is what is left after `retries` retries.
 */
export class EngramUnavailableError extends EngramError {
  override readonly name: string = 'EngramUnavailableError';
  constructor(
    reason: string,
    /** Where the client looked for Engram (the NATS servers or the HTTP base URL). */
    readonly where: string,
    /** How many times the client asked again before giving up. */
    readonly retries = 0,
    details: Readonly<Record<string, unknown>> = {},
  ) {
    super('UNAVAILABLE', reason, '', details);
    this.message = `Engram is not reachable at ${where}: is it running (\`npm start\`)? retried ${retries} ${
      retries === 1 ? 'time' : 'times'
    } (${reason})`;
  }

  /** The same failure, after `retries` retries. */
  afterRetries(retries: number): EngramUnavailableError {
    return new EngramUnavailableError(this.reason, this.where, retries, this.details);
  }
}

/** No answer in time. Retried for reads only (RpcSpec.readOnly): a write may have taken effect. */
export class EngramDeadlineExceededError extends EngramError {
  override readonly name: string = 'EngramDeadlineExceededError';
  constructor(reason: string, details: Readonly<Record<string, unknown>> = {}) {
    super(
      'DEADLINE_EXCEEDED',
      reason,
      'raise timeoutMs or try again; the request may have taken effect',
      details,
    );
  }
}

/** A fault inside Engram. */
export class EngramInternalError extends EngramError {
  override readonly name: string = 'EngramInternalError';
  constructor(reason: string, details: Readonly<Record<string, unknown>> = {}) {
    super('INTERNAL', reason, "a fault inside Engram: its services' logs say more", details);
  }
}

/** What a transport knows beside the code and Engram's sentence. */
export interface FailureContext {
  readonly where: string;
  readonly fieldViolations?: readonly FieldViolation[];
  readonly retryAfterMs?: number;
}

/** The error class of a code, the one mapping both transports use. */
export function engramError(
  code: string,
  reason: string,
  details: Readonly<Record<string, unknown>>,
  context: FailureContext,
): EngramError {
  switch (code) {
    case 'INVALID_ARGUMENT':
      return new EngramInvalidArgumentError(reason, context.fieldViolations ?? [], details);
    case 'UNAUTHENTICATED':
      return new EngramUnauthenticatedError(reason, details);
    case 'PERMISSION_DENIED':
      return new EngramPermissionDeniedError(reason, details);
    case 'NOT_FOUND':
      return new EngramNotFoundError(reason, details);
    case 'FAILED_PRECONDITION':
      return new EngramFailedPreconditionError(reason, details);
    case 'PAYLOAD_TOO_LARGE':
      return new EngramPayloadTooLargeError(reason, details);
    case 'RESOURCE_EXHAUSTED':
      return new EngramRateLimitedError(reason, context.retryAfterMs, details);
    case 'UNAVAILABLE':
      return new EngramUnavailableError(reason, context.where, 0, details);
    case 'DEADLINE_EXCEEDED':
      return new EngramDeadlineExceededError(reason, details);
    case 'INTERNAL':
      return new EngramInternalError(reason, details);
    default:
      return new EngramError('UNKNOWN', reason, `Engram answered the unknown code ${code}`, {
        ...details,
        code,
      });
  }
}

/** `details.fieldViolations` of an RPC error, kept only where it has the documented shape. */
export function fieldViolationsOf(value: unknown): FieldViolation[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v: unknown) => {
    const { field, description } = (v ?? {}) as { field?: unknown; description?: unknown };
    return typeof field === 'string' && typeof description === 'string' ? [{ field, description }] : [];
  });
}
