/**
 * What every model provider (the built-in local model, any OpenAI-compatible endpoint) takes
 * and gives back. Tool messages are not part of it: prompts that carry tool calls render them
 * as text, so a request is valid on every server.
 */
export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  readonly role: ChatRole;
  readonly content: string;
}

/** A JSON Schema (draft-07 by default; `$schema` may ask for 2020-12). */
export type JsonSchema = Record<string, unknown>;

export interface EmbedRequest {
  readonly model: string;
  readonly input: readonly string[];
  /** The tenant's key for this call; never logged, never part of an error. */
  readonly apiKey?: string;
  /** The only deadline: nothing times out unless the caller aborts. */
  readonly signal?: AbortSignal;
}

export interface EmbedResult {
  /** One vector per input, in input order. */
  readonly vectors: Float32Array[];
  /** The model that made them, as the server names it. */
  readonly model: string;
  readonly dimensions: number;
  readonly usage?: { readonly promptTokens?: number; readonly totalTokens?: number };
}

/** How much a reasoning model reasons, as OpenAI's `reasoning_effort` names it (Ollama takes the same field). */
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/**
 * How a reasoning model is asked to think, in the two ways servers take it: `effort` goes out as
 * `reasoning_effort` (OpenAI, Ollama), `enabled` as the chat template's `enable_thinking` (vLLM,
 * llama.cpp's server, SGLang). Whatever the model thinks never reaches the answer.
 */
export interface Thinking {
  readonly effort?: ReasoningEffort;
  readonly enabled?: boolean;
}

export interface CompleteRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly thinking?: Thinking;
  /** Ask for structured output: the answer must be JSON valid against this schema. */
  readonly jsonSchema?: JsonSchema;
  /** The schema's name on the wire (`[a-zA-Z0-9_-]{1,64}`); defaults to the schema's title or "output". */
  readonly schemaName?: string;
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly apiKey?: string;
  readonly signal?: AbortSignal;
}

export interface CompleteResult {
  /** The model's answer as text (with `jsonSchema`: the answer that validated). */
  readonly text: string;
  /** With `jsonSchema`: the parsed, schema-valid answer. */
  readonly json?: unknown;
  readonly model: string;
  /** Summed over every call the answer took (a repair attempt is a second call). */
  readonly promptTokens?: number;
  readonly completionTokens?: number;
}

export interface InferenceProvider {
  embed(request: EmbedRequest): Promise<EmbedResult>;
  complete(request: CompleteRequest): Promise<CompleteResult>;
}
