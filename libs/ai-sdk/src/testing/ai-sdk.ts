import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider' with { 'resolution-mode': 'import' };
import type * as Ai from 'ai' with { 'resolution-mode': 'import' };
import type * as AiTest from 'ai/test' with { 'resolution-mode': 'import' };
import type { Prompt } from '../ai-sdk-types';

/** The AI SDK (`ai` and `ai/test`) for specs: ES modules only, so this CommonJS code loads them with import(). */
export async function loadAiSdk(): Promise<typeof Ai & typeof AiTest> {
  const [ai, test] = await Promise.all([import('ai'), import('ai/test')]);
  return { ...ai, ...test };
}

/** A prompt as a model receives it, one `role: text` line a message (a part without text by its type). */
export function promptLines(prompt: Prompt): string[] {
  return prompt.map((message) =>
    typeof message.content === 'string'
      ? `${message.role}: ${message.content}`
      : `${message.role}: ${message.content.map((part) => ('text' in part ? part.text : part.type)).join(' ')}`,
  );
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** What a mock model answers when it says `text`. */
export function textAnswer(text: string): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: undefined },
    usage,
    warnings: [],
  };
}

/** What a mock model answers when it calls the tool `toolName` with `input`. */
export function toolCallAnswer(
  toolName: string,
  input: object,
  toolCallId = 'call-1',
): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: undefined },
    usage,
    warnings: [],
  };
}

/** The parts of a streamed answer saying `words`, one delta each, and its finish. */
export function streamedParts(words: readonly string[]): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 'text-1' },
    ...words.map((delta) => ({ type: 'text-delta' as const, id: 'text-1', delta })),
    { type: 'text-end', id: 'text-1' },
    { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
  ];
}

/** A mock model's streamed answer: `parts`, then the end of the stream. */
export function streamAnswer(parts: readonly LanguageModelV4StreamPart[]): LanguageModelV4StreamResult {
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}
