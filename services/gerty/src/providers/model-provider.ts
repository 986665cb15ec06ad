import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import type { ChatMessage, JsonSchema } from '@engram/inference';
import type { TaskInput, TaskName } from '@engram/prompts';

export interface CallOptions {
  /** Aborted when the caller stops waiting. */
  readonly signal: AbortSignal;
  /** The tenant's own key (or the operator's), for remote models. */
  readonly apiKey?: string;
}

export interface Embedding {
  readonly vectors: ReadonlyArray<ArrayLike<number>>;
  readonly dimensions: number;
}

export interface Completion {
  readonly text: string;
  readonly json?: JsonValue;
  readonly promptTokens?: number;
  readonly completionTokens?: number;
}

export interface ChatPrompt {
  readonly messages: readonly ChatMessage[];
  readonly jsonSchema?: JsonSchema;
  readonly schemaName?: string;
  readonly maxTokens?: number;
  readonly temperature?: number;
}

/** One configured model, as the use cases see it. */
export interface ModelProvider {
  /** The id recorded beside what the model produced (a vector's embedding_model). */
  readonly modelId: string;
  /** When its completions come from something else than its vectors (the built-in engine). */
  readonly completionModelId?: string;
  /** Vector width, for embedding models. */
  readonly dimensions?: number;
  embed(texts: readonly string[], options: CallOptions): Promise<Embedding>;
  complete(prompt: ChatPrompt, options: CallOptions): Promise<Completion>;
  /** Models that do Engram's tasks natively (the built-in one) instead of reading a prompt. */
  runTask?<T extends TaskName>(task: T, input: TaskInput<T>): Completion;
}

export type { JsonObject };
