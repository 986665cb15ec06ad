/**
 * The OpenAI wire format as Ollama, llama.cpp server, vLLM, TEI and the cloud APIs speak it:
 * building request bodies and reading answers. Pure; the client does the I/O.
 */
import type { ChatMessage, JsonSchema, Thinking } from '@engram/inference';

/**
 * How structured output is asked for, best first. A server that rejects one gets the next:
 * json_schema (the server constrains decoding to the schema), json_object (JSON mode, the
 * schema in the system prompt), prompt (no response_format at all, the schema in the prompt).
 * Every mode is validated against the schema on our side.
 */
export const STRUCTURED_MODES = ['json_schema', 'json_object', 'prompt'] as const;
export type StructuredMode = (typeof STRUCTURED_MODES)[number];

export type Parsed<T> = ({ readonly ok: true } & T) | { readonly ok: false; readonly problem: string };

export interface ChatBody {
  model: string;
  messages: readonly ChatMessage[];
  stream: false;
  max_tokens?: number;
  temperature?: number;
  response_format?: Record<string, unknown>;
  reasoning_effort?: string;
  chat_template_kwargs?: { enable_thinking: boolean };
}

export function chatBody(
  request: { model: string; maxTokens?: number; temperature?: number; thinking?: Thinking },
  messages: readonly ChatMessage[],
  structured?: { mode: StructuredMode; name: string; schema: JsonSchema },
): ChatBody {
  const body: ChatBody = {
    model: request.model,
    messages: messages.map(({ role, content }) => ({ role, content })),
    stream: false,
  };
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.thinking?.effort) body.reasoning_effort = request.thinking.effort;
  if (request.thinking?.enabled !== undefined)
    body.chat_template_kwargs = { enable_thinking: request.thinking.enabled };
  if (structured?.mode === 'json_schema') {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: structured.name, schema: structured.schema, strict: true },
    };
  } else if (structured?.mode === 'json_object') {
    body.response_format = { type: 'json_object' };
  }
  return body;
}

export interface ChatAnswer {
  readonly text: string;
  readonly model?: string;
  readonly finishReason?: string;
  readonly refusal?: string;
  readonly promptTokens?: number;
  readonly completionTokens?: number;
}

export function parseChatAnswer(body: unknown): Parsed<ChatAnswer> {
  const choices = (body as { choices?: unknown } | null)?.choices;
  const choice = Array.isArray(choices) ? (choices[0] as Record<string, unknown> | undefined) : undefined;
  const message = choice?.message as { content?: unknown; refusal?: unknown } | undefined;
  if (!message || typeof message !== 'object')
    return { ok: false, problem: 'the answer has no choices[0].message' };
  if (message.content !== undefined && message.content !== null && typeof message.content !== 'string') {
    return { ok: false, problem: 'choices[0].message.content is not a string' };
  }
  const usage = (body as { usage?: Record<string, unknown> }).usage;
  return {
    ok: true,
    text: message.content ?? '',
    ...optional('model', stringOr((body as { model?: unknown }).model)),
    ...optional('finishReason', stringOr(choice?.finish_reason)),
    ...optional('refusal', stringOr(message.refusal)),
    ...optional('promptTokens', numberOr(usage?.prompt_tokens)),
    ...optional('completionTokens', numberOr(usage?.completion_tokens)),
  };
}

export interface Embeddings {
  readonly vectors: Float32Array[];
  readonly model?: string;
  readonly promptTokens?: number;
  readonly totalTokens?: number;
}

/** `data[].embedding` (floats, or base64 little-endian float32) sorted by `index`; one per input, all one width. */
export function parseEmbeddings(body: unknown, inputs: number): Parsed<Embeddings> {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return { ok: false, problem: 'the answer has no data array' };
  if (data.length !== inputs)
    return { ok: false, problem: `the answer has ${data.length} embeddings for ${inputs} inputs` };
  const items = data.map((item: { index?: unknown; embedding?: unknown }, position) => ({
    index: typeof item?.index === 'number' ? item.index : position,
    embedding: item?.embedding,
  }));
  items.sort((a, b) => a.index - b.index);
  const vectors: Float32Array[] = [];
  for (const { index, embedding } of items) {
    let vector: Float32Array;
    if (typeof embedding === 'string') {
      const bytes = Buffer.from(embedding, 'base64');
      if (bytes.length === 0 || bytes.length % 4 !== 0)
        return { ok: false, problem: `embedding ${index} is not base64 float32` };
      vector = new Float32Array(new Uint8Array(bytes).buffer);
    } else if (
      Array.isArray(embedding) &&
      embedding.every((x) => typeof x === 'number' && Number.isFinite(x))
    ) {
      vector = Float32Array.from(embedding as number[]);
    } else {
      return { ok: false, problem: `embedding ${index} is not an array of numbers` };
    }
    if (vector.length === 0) return { ok: false, problem: `embedding ${index} is empty` };
    if (vectors.length > 0 && vector.length !== vectors[0]!.length) {
      return {
        ok: false,
        problem: `embedding ${index} has ${vector.length} dimensions, the first has ${vectors[0]!.length}`,
      };
    }
    vectors.push(vector);
  }
  const usage = (body as { usage?: Record<string, unknown> }).usage;
  return {
    ok: true,
    vectors,
    ...optional('model', stringOr((body as { model?: unknown }).model)),
    ...optional('promptTokens', numberOr(usage?.prompt_tokens)),
    ...optional('totalTokens', numberOr(usage?.total_tokens)),
  };
}

const MAX_SERVER_MESSAGE_CHARS = 500;

/**
 * What the server said went wrong, from the error body shapes in the wild:
 * OpenAI/vLLM `{error: {message}}` or `{message}`, Ollama/TEI `{error: "…"}`, FastAPI `{detail}`,
 * or the text itself. Shortened; not yet redacted.
 */
export function serverErrorMessage(text: string): string {
  let message: unknown = text;
  try {
    const body = JSON.parse(text) as Record<string, unknown> | null;
    const error = body?.error as Record<string, unknown> | string | undefined;
    message =
      (typeof error === 'object' && error !== null ? error.message : error) ??
      body?.message ??
      (typeof body?.detail === 'string'
        ? body.detail
        : body?.detail !== undefined
          ? JSON.stringify(body.detail)
          : undefined) ??
      text;
  } catch {
    // not JSON: the text is the message
  }
  const flat = (typeof message === 'string' ? message : JSON.stringify(message)).replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SERVER_MESSAGE_CHARS ? `${flat.slice(0, MAX_SERVER_MESSAGE_CHARS)}…` : flat;
}

/**
 * A 400/422 that complains about the response format: the server does not support this way of
 * asking for structured output (or not with this schema), so the next mode is tried. Examples:
 * "response_format type json_schema is not supported", "Unsupported response_format",
 * "Invalid schema for response_format 'x'", "json_schema: unknown field".
 */
export function isResponseFormatRejection(status: number, message: string): boolean {
  return (
    (status === 400 || status === 422) &&
    /response[_ ]format|json[_ ]schema|json[_ ]object|structured output/i.test(message)
  );
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
