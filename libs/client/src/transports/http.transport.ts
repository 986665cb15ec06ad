import { httpPath, type RpcSpec } from '@engram/contracts';
import { EngramDeadlineExceededError, EngramInternalError, EngramUnavailableError } from '../errors';
import type { PublishedTurn, Transport } from '../transport';
import { problemError } from './http-problem';

export interface HttpTransportOptions {
  /** Where the api edge listens, e.g. `http://127.0.0.1:8080` (a path prefix is kept). */
  readonly baseUrl: string;
  /** An API key (`npm run engram -- apikey create --tenant …`): it decides the tenant. */
  readonly apiKey: string;
  /** The fetch to use (default: Node's global fetch). */
  readonly fetch?: typeof fetch;
}

/**
 * Engram over its HTTP edge: `POST {baseUrl}/v1/<rpc>` with the request's protobuf JSON, the
 * response message as JSON; turns `POST /v1/turns/{agent}` with `Idempotency-Key`; failures
 * as RFC 9457 problem+json; `Authorization: Bearer <key>` on every request.
 */
export class HttpTransport implements Transport {
  readonly where: string;
  readonly tenant = undefined;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: HttpTransportOptions) {
    this.where = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  call(spec: RpcSpec, body: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    return this.post(httpPath(spec), body, {}, timeoutMs);
  }

  async publishTurn(
    { agent }: { readonly agent: string },
    body: Uint8Array,
    idempotencyKey: string,
    timeoutMs: number,
  ): Promise<PublishedTurn> {
    const path = `/v1/turns/${encodeURIComponent(agent)}`;
    const answer = await this.post(path, body, { 'idempotency-key': idempotencyKey }, timeoutMs);
    const { stream, seq, duplicate } = parseJson(answer) as Partial<PublishedTurn>;
    if (typeof stream !== 'string' || typeof seq !== 'number') {
      throw new EngramInternalError(`${path} answered without stream and seq`);
    }
    return { stream, seq, duplicate: duplicate === true };
  }

  async close(): Promise<void> {}

  /** One POST; a 2xx answer's body, else the EngramError of its problem (no answer at all is UNAVAILABLE). */
  private async post(
    path: string,
    body: Uint8Array,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<Uint8Array> {
    const url = `${this.where}${path}`;
    let response: Response;
    let bytes: Uint8Array;
    try {
      response = await this.fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json, application/problem+json',
          ...headers,
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new EngramDeadlineExceededError(`POST ${path} did not answer within ${timeoutMs} ms`, { url });
      }
      throw new EngramUnavailableError(`POST ${path}: ${networkReason(error)}`, this.where, 0, { url });
    }
    if (response.ok) return bytes;
    throw problemError(response.status, new TextDecoder().decode(bytes), response.headers, this.where);
  }
}

/** fetch says "fetch failed"; the cause says why (ECONNREFUSED …). */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return {};
  }
}
