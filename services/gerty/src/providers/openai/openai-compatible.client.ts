import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import {
  DEFAULT_RETRY_SCHEDULE,
  InferenceError,
  JsonSchemaValidator,
  backoffBeforeRetry,
  extractJson,
  isRetryableStatus,
  parseRetryAfterMs,
  redactSecrets,
  repairConversation,
  retryableNetworkCode,
  schemaNameFor,
  withSchemaInstructions,
  withoutThinking,
  type ChatMessage,
  type CompleteRequest,
  type CompleteResult,
  type EmbedRequest,
  type EmbedResult,
  type InferenceErrorKind,
  type InferenceProvider,
  type JsonSchema,
  type RetrySchedule,
} from '@engram/inference';
import {
  STRUCTURED_MODES,
  chatBody,
  isResponseFormatRejection,
  parseChatAnswer,
  parseEmbeddings,
  serverErrorMessage,
  type ChatAnswer,
  type StructuredMode,
} from './openai-protocol';

export interface OpenAiClientLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface OpenAiCompatibleClientOptions {
  /**
   * Where the server is: "http://ollama:11434" (a bare origin means the API lives under /v1)
   * or the API root itself, as OpenAI SDKs take it ("https://api.openai.com/v1",
   * "https://api.groq.com/openai/v1").
   */
  readonly baseUrl: string;
  /** Sent with every request. The values of auth-like headers are treated as secrets. */
  readonly defaultHeaders?: Readonly<Record<string, string>>;
  /** Most connections open to this endpoint at once (default 8); further requests queue. */
  readonly connections?: number;
  /** An idle connection is closed after this long (default 4 s, below the 5 s keep-alive most servers use). */
  readonly keepAliveTimeoutMs?: number;
  /** Waits before the retries (default 5, 10, 15 s) and the cap on Retry-After (default 60 s). */
  readonly retry?: Partial<RetrySchedule>;
  /** Told about every retry and structured-output fallback. Never given a key. */
  readonly logger?: OpenAiClientLogger;
}

const DEFAULT_CONNECTIONS = 8;
const DEFAULT_KEEP_ALIVE_MS = 4_000;
const SECRET_HEADER = /authorization|api[-_]?key|token|secret|cookie/i;

interface Verdict {
  readonly ok: boolean;
  readonly value?: unknown;
  readonly problems: string[];
}

/**
 * A client for one OpenAI-compatible endpoint (Ollama, llama.cpp server, vLLM, TEI or a cloud
 * API) over one keep-alive undici Pool.
 *
 * Nothing times out on its own: undici's header and body timeouts are off, and only the
 * caller's AbortSignal ends a call (a local model may take minutes to answer). Network
 * errors, 429 and 5xx are retried after 5, 10 and 15 s (longer if Retry-After asks, up to
 * 60 s); other 4xx fail at once. Keys come per call and only ever travel in the
 * Authorization header: errors and log lines are redacted.
 */
export class OpenAiCompatibleClient implements InferenceProvider {
  /** "http://host:port/v1": where requests go, without credentials. */
  readonly endpoint: string;
  private readonly pool: Pool;
  private readonly apiPath: string;
  private readonly headers: Record<string, string>;
  private readonly headerSecrets: string[];
  private readonly schedule: RetrySchedule;
  private readonly logger: OpenAiClientLogger | undefined;
  private readonly validator = new JsonSchemaValidator();
  /** The structured-output mode each model's server accepted last (see STRUCTURED_MODES). */
  private readonly structuredModes = new Map<string, StructuredMode>();

  constructor(options: OpenAiCompatibleClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new TypeError('OpenAiCompatibleClient: baseUrl is not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`OpenAiCompatibleClient: baseUrl must be http(s), not ${url.protocol}`);
    }
    const path = url.pathname.replace(/\/+$/, '');
    this.apiPath = path === '' ? '/v1' : path;
    this.endpoint = `${url.origin}${this.apiPath}`;
    this.headers = { 'content-type': 'application/json', accept: 'application/json' };
    this.headerSecrets = [];
    for (const [name, value] of Object.entries(options.defaultHeaders ?? {})) {
      this.headers[name.toLowerCase()] = value;
      if (SECRET_HEADER.test(name))
        this.headerSecrets.push(value, value.replace(/^\s*(Bearer|Basic)\s+/i, ''));
    }
    this.schedule = { ...DEFAULT_RETRY_SCHEDULE, ...options.retry };
    this.logger = options.logger;
    this.pool = new Pool(url.origin, {
      connections: options.connections ?? DEFAULT_CONNECTIONS,
      pipelining: 1,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_MS,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  /** POST /embeddings: one vector per input, in input order. */
  async embed(request: EmbedRequest): Promise<EmbedResult> {
    if (request.input.length === 0) return { vectors: [], model: request.model, dimensions: 0 };
    const body = await this.post(
      '/embeddings',
      { model: request.model, input: [...request.input], encoding_format: 'float' },
      request,
    );
    const parsed = parseEmbeddings(body, request.input.length);
    if (!parsed.ok)
      throw new InferenceError('invalid_output', `${this.describe('/embeddings')}: ${parsed.problem}`);
    const usage =
      parsed.promptTokens !== undefined || parsed.totalTokens !== undefined
        ? { ...defined('promptTokens', parsed.promptTokens), ...defined('totalTokens', parsed.totalTokens) }
        : undefined;
    return {
      vectors: parsed.vectors,
      model: parsed.model ?? request.model,
      dimensions: parsed.vectors[0]!.length,
      ...(usage ? { usage } : {}),
    };
  }

  /**
   * POST /chat/completions. With `jsonSchema` the answer is parsed and validated; an invalid
   * one gets one repair attempt, then fails as invalid_output listing what was wrong.
   */
  async complete(request: CompleteRequest): Promise<CompleteResult> {
    if (!request.jsonSchema) {
      const answer = await this.chat(request, request.messages);
      return {
        text: withoutThinking(answer.text),
        model: answer.model ?? request.model,
        ...defined('promptTokens', answer.promptTokens),
        ...defined('completionTokens', answer.completionTokens),
      };
    }
    return this.completeStructured(request, request.jsonSchema);
  }

  /** Lets in-flight requests finish, then closes every connection. */
  async close(): Promise<void> {
    await this.pool.close();
  }

  /** Closes every connection now; in-flight requests fail. */
  async destroy(): Promise<void> {
    await this.pool.destroy();
  }

  private async completeStructured(request: CompleteRequest, schema: JsonSchema): Promise<CompleteResult> {
    const schemaProblem = this.validator.schemaProblem(schema);
    if (schemaProblem)
      throw new InferenceError(
        'rejected',
        `the JSON schema for ${request.model} does not compile: ${schemaProblem}`,
      );
    const name = schemaNameFor(schema, request.schemaName);
    let promptTokens: number | undefined;
    let completionTokens: number | undefined;
    const ask = async (conversation: readonly ChatMessage[]): Promise<ChatAnswer> => {
      const answer = await this.chatStructured(request, conversation, name, schema);
      if (answer.promptTokens !== undefined) promptTokens = (promptTokens ?? 0) + answer.promptTokens;
      if (answer.completionTokens !== undefined)
        completionTokens = (completionTokens ?? 0) + answer.completionTokens;
      return answer;
    };
    const done = (answer: ChatAnswer, value: unknown): CompleteResult => ({
      text: answer.text,
      json: value,
      model: answer.model ?? request.model,
      ...defined('promptTokens', promptTokens),
      ...defined('completionTokens', completionTokens),
    });

    const first = await ask(request.messages);
    const verdict = this.judge(first, schema);
    if (verdict.ok) return done(first, verdict.value);

    const repaired = await ask(repairConversation(request.messages, first.text, verdict.problems));
    const second = this.judge(repaired, schema);
    if (second.ok) return done(repaired, second.value);
    throw new InferenceError(
      'invalid_output',
      `${request.model} at ${this.endpoint} did not answer with JSON valid against the schema, even after one repair attempt: ` +
        second.problems.join('; '),
      { problems: second.problems },
    );
  }

  /** One structured chat call in the best mode this model's server accepts, stepping down on a 400 about response_format. */
  private async chatStructured(
    request: CompleteRequest,
    conversation: readonly ChatMessage[],
    name: string,
    schema: JsonSchema,
  ): Promise<ChatAnswer> {
    for (;;) {
      const mode = this.structuredModes.get(request.model) ?? STRUCTURED_MODES[0];
      const messages = mode === 'json_schema' ? conversation : withSchemaInstructions(conversation, schema);
      try {
        return await this.chat(request, messages, { mode, name, schema });
      } catch (error) {
        const next = STRUCTURED_MODES[STRUCTURED_MODES.indexOf(mode) + 1];
        const rejectedFormat =
          error instanceof InferenceError &&
          error.kind === 'rejected' &&
          error.status !== undefined &&
          isResponseFormatRejection(error.status, error.message);
        if (!rejectedFormat || !next) throw error;
        this.logger?.warn(
          { endpoint: this.endpoint, model: request.model, from: mode, to: next, status: error.status },
          `structured output as ${mode} rejected; asking with ${next} from now on: ${error.message}`,
        );
        this.structuredModes.set(request.model, next);
      }
    }
  }

  private judge(answer: ChatAnswer, schema: JsonSchema): Verdict {
    const problems: string[] = [];
    if (!answer.text.trim() && answer.refusal) {
      problems.push(`the model refused: ${answer.refusal}`);
    } else {
      const extracted = extractJson(answer.text);
      if (!extracted.ok) {
        problems.push(extracted.problem);
      } else {
        const check = this.validator.check(schema, extracted.value);
        if (check.valid) return { ok: true, value: extracted.value, problems };
        problems.push(...check.problems);
      }
    }
    if (answer.finishReason === 'length')
      problems.push('the answer was cut off by the token limit (finish_reason "length")');
    return { ok: false, problems };
  }

  private async chat(
    request: CompleteRequest,
    messages: readonly ChatMessage[],
    structured?: { mode: StructuredMode; name: string; schema: JsonSchema },
  ): Promise<ChatAnswer> {
    const body = await this.post('/chat/completions', chatBody(request, messages, structured), request);
    const parsed = parseChatAnswer(body);
    if (!parsed.ok)
      throw new InferenceError('invalid_output', `${this.describe('/chat/completions')}: ${parsed.problem}`);
    return parsed;
  }

  /** POST JSON, retrying on the schedule; the parsed JSON answer of a 2xx. */
  private async post(
    path: string,
    payload: unknown,
    call: { apiKey?: string; signal?: AbortSignal },
  ): Promise<unknown> {
    const where = this.describe(path);
    const secrets = [call.apiKey, ...this.headerSecrets];
    const headers = call.apiKey ? { ...this.headers, authorization: `Bearer ${call.apiKey}` } : this.headers;
    const body = JSON.stringify(payload);
    const signal = call.signal;

    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw this.aborted(where, signal, secrets);
      let failure: { kind: InferenceErrorKind; detail: string; status?: number; code?: string };
      let retryAfterMs: number | undefined;
      try {
        const response = await this.pool.request({
          method: 'POST',
          path: this.apiPath + path,
          headers,
          body,
          signal: signal ?? null,
        });
        const status = response.statusCode;
        const text = await response.body.text();
        if (status >= 200 && status < 300) {
          try {
            return JSON.parse(text) as unknown;
          } catch {
            const type = String(response.headers['content-type'] ?? 'no content-type');
            const start = redactSecrets(text.slice(0, 80).replace(/\s+/g, ' '), secrets);
            throw new InferenceError(
              'invalid_output',
              `${where} answered ${status} with a body that is not JSON (${type}): ${start}`,
              {
                status,
                attempts: attempt,
              },
            );
          }
        }
        const message =
          redactSecrets(serverErrorMessage(text), secrets) || response.statusText || 'no message';
        if (!isRetryableStatus(status)) {
          throw new InferenceError('rejected', `${where} answered ${status}: ${message}`, {
            status,
            attempts: attempt,
          });
        }
        failure = {
          kind: status === 429 ? 'rate_limited' : 'unavailable',
          detail: `answered ${status}: ${message}`,
          status,
        };
        retryAfterMs = parseRetryAfterMs(response.headers['retry-after']);
      } catch (error) {
        if (error instanceof InferenceError) throw error;
        if (signal?.aborted) throw this.aborted(where, signal, secrets);
        const detail = redactSecrets(error instanceof Error ? error.message : String(error), secrets);
        const code = retryableNetworkCode(error);
        if (!code) {
          const own = (error as { code?: unknown } | null)?.code;
          throw new InferenceError('unavailable', `${where} failed: ${detail}`, {
            attempts: attempt,
            ...(typeof own === 'string' ? { code: own } : {}),
          });
        }
        failure = { kind: 'unavailable', detail: `failed: ${detail} (${code})`, code };
      }

      const delayMs = backoffBeforeRetry(attempt, this.schedule, retryAfterMs);
      if (delayMs === undefined) {
        throw new InferenceError(
          failure.kind,
          `${where} ${failure.detail}; gave up after ${attempt} attempt${attempt === 1 ? '' : 's'}`,
          {
            attempts: attempt,
            ...(failure.status !== undefined ? { status: failure.status } : {}),
            ...(failure.code !== undefined ? { code: failure.code } : {}),
          },
        );
      }
      this.logger?.warn(
        { endpoint: this.endpoint, path, attempt, delayMs, status: failure.status, code: failure.code },
        `inference request ${failure.detail}; retrying in ${delayMs} ms`,
      );
      try {
        await sleep(delayMs, undefined, signal ? { signal } : undefined);
      } catch {
        throw this.aborted(where, signal, secrets);
      }
    }
  }

  private aborted(
    where: string,
    signal: AbortSignal | undefined,
    secrets: readonly (string | undefined)[],
  ): InferenceError {
    // Duck-typed: a DOMException (AbortSignal.timeout) may come from another realm than Error.
    const reason = signal?.reason as { name?: unknown; message?: unknown } | undefined;
    const why =
      typeof reason?.name === 'string' && typeof reason.message === 'string' && reason.name !== 'AbortError'
        ? ` (${reason.name}: ${redactSecrets(reason.message, secrets)})`
        : '';
    return new InferenceError('aborted', `${where} aborted by the caller${why}`);
  }

  private describe(path: string): string {
    return `POST ${this.endpoint}${path}`;
  }
}

function defined<K extends string>(key: K, value: number | undefined): { [P in K]?: number } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: number };
}
