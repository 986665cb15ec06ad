/**
 * The AI SDK's types this package speaks. `ai` and `@ai-sdk/provider` are ES modules only, and
 * this package's sources compile as CommonJS too: the imports are type-only and say they resolve
 * as an ES module import would, so nothing of the AI SDK is loaded at run time by this package.
 */
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultOutput,
} from '@ai-sdk/provider' with { 'resolution-mode': 'import' };

export type { FlexibleSchema, LanguageModelMiddleware, Tool, ToolExecutionOptions } from 'ai' with {
  'resolution-mode': 'import',
};

/** What a language model is called with: the prompt and the settings. */
export type CallOptions = LanguageModelV4CallOptions;
/** A model's prompt, message by message. */
export type Prompt = LanguageModelV4Prompt;
export type PromptMessage = LanguageModelV4Message;
/** One part of what a model answered (text, a tool call …). */
export type OutputPart = LanguageModelV4Content;
/** One part of a model's streamed answer. */
export type StreamPart = LanguageModelV4StreamPart;
/** A tool's result as the prompt carries it back to the model. */
export type ToolResultOutput = LanguageModelV4ToolResultOutput;
