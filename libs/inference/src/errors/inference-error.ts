/**
 * unavailable    the endpoint could not be reached or kept failing (network errors, 5xx) — transient
 * rate_limited   the endpoint kept answering 429 — transient
 * rejected       the endpoint refused the request (400, 401, 403, 404 …); asking again will not help
 * invalid_output the model answered, but not with what was asked for (e.g. JSON that fails the schema)
 * aborted        the caller's AbortSignal fired
 */
export type InferenceErrorKind = 'unavailable' | 'rate_limited' | 'rejected' | 'invalid_output' | 'aborted';

export interface InferenceErrorDetails {
  /** The HTTP status of the last answer, when there was one. */
  readonly status?: number;
  /** How many requests were made before giving up. */
  readonly attempts?: number;
  /** The network error code of the last failure (ECONNREFUSED, UND_ERR_SOCKET …). */
  readonly code?: string;
  /** invalid_output: what was wrong with the answer, one item per problem. */
  readonly problems?: readonly string[];
}

/**
 * The one error a provider throws. Its message is meant for people and logs; it never carries
 * an API key, a request header or the prompt (see redactSecrets).
 */
export class InferenceError extends Error {
  override readonly name = 'InferenceError';
  readonly status?: number;
  readonly attempts?: number;
  readonly code?: string;
  readonly problems?: readonly string[];

  constructor(
    readonly kind: InferenceErrorKind,
    message: string,
    details: InferenceErrorDetails = {},
  ) {
    super(message);
    if (details.status !== undefined) this.status = details.status;
    if (details.attempts !== undefined) this.attempts = details.attempts;
    if (details.code !== undefined) this.code = details.code;
    if (details.problems !== undefined) this.problems = details.problems;
  }

  /** Worth trying again later: the endpoint, not the request, was the problem. */
  get transient(): boolean {
    return this.kind === 'unavailable' || this.kind === 'rate_limited';
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      status: this.status,
      attempts: this.attempts,
      code: this.code,
      problems: this.problems,
    };
  }
}

export function isInferenceError(error: unknown): error is InferenceError {
  return error instanceof InferenceError;
}
