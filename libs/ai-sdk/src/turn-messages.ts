import { fromJson, type JsonValue } from '@bufbuild/protobuf';
import { ValueSchema, type Value } from '@bufbuild/protobuf/wkt';
import type { TurnInit } from '@engram/client';
import type { OutputPart, Prompt, PromptMessage, ToolResultOutput } from './ai-sdk-types';

/** One message of a turn as Engram stores it. */
export type TurnMessageInit = NonNullable<TurnInit['messages']>[number];

/**
 * One model call of a turn. A turn is the user's message and everything the model does about
 * it: with tools, several calls (steps), each prompted with the steps before it.
 */
export interface TurnStep {
  /** Where the user's message is in the prompt. */
  readonly userIndex: number;
  /** What the user said (the text of the message). */
  readonly question: string;
  /** 0 for the first call, then one more for each answer of the model the prompt carries back. */
  readonly step: number;
  /** What this call adds to memory from its prompt: the user's message, or the tool results since the last step. */
  readonly input: readonly TurnMessageInit[];
}

/** The text of a message: its text parts, one per line. */
export function textOf(message: PromptMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** Where the prompt's last user message is, or -1. */
export function lastUserIndex(prompt: Prompt): number {
  return prompt.findLastIndex((message) => message.role === 'user');
}

/** The step a prompt asks for, or undefined when it has no user message with text to remember. */
export function stepOf(prompt: Prompt): TurnStep | undefined {
  const userIndex = lastUserIndex(prompt);
  const question = userIndex < 0 ? '' : textOf(prompt[userIndex]!);
  if (question.trim() === '') return undefined;
  const since = prompt.slice(userIndex + 1);
  const step = since.filter((message) => message.role === 'assistant').length;
  // The earlier steps' answers were stored with their step; their tools' results come with this one.
  const results = since.slice(since.findLastIndex((message) => message.role === 'assistant') + 1);
  return {
    userIndex,
    question,
    step,
    input: step === 0 ? [{ role: 'user', content: question }] : results.flatMap(toolResultMessages),
  };
}

/** The tool results a tool message carries back to the model, as Engram's tool messages. */
function toolResultMessages(message: PromptMessage): TurnMessageInit[] {
  if (message.role !== 'tool') return [];
  return message.content.flatMap((part) =>
    part.type === 'tool-result'
      ? [{ ...toolResultOf(part.output), toolName: part.toolName, toolCallId: part.toolCallId }]
      : [],
  );
}

/** A tool's output as Engram keeps it: text as the content too, a failure as `{ error }`. */
function toolResultOf(output: ToolResultOutput): TurnMessageInit {
  const value = 'value' in output ? output.value : { denied: output.reason ?? true };
  const failed = output.type === 'error-text' || output.type === 'error-json';
  return {
    role: 'tool',
    content: output.type === 'text' || output.type === 'error-text' ? output.value : '',
    toolResult: jsonValue(failed ? { error: value } : value),
  };
}

/** What the model answered, as Engram's messages: its text, each tool call, each result a provider ran. */
export function answerMessages(answer: readonly OutputPart[]): TurnMessageInit[] {
  const messages: TurnMessageInit[] = [];
  for (const part of answer) {
    const previous = messages.at(-1);
    if (part.type === 'text' && part.text.trim() === '') continue;
    if (part.type === 'text' && previous?.role === 'assistant' && !previous.toolName)
      previous.content = `${previous.content}${part.text}`;
    else if (part.type === 'text') messages.push({ role: 'assistant', content: part.text });
    else if (part.type === 'tool-call')
      messages.push({
        role: 'assistant',
        content: '',
        toolName: part.toolName,
        toolCallId: part.toolCallId,
        toolArgs: jsonValue(parsedInput(part.input)),
      });
    else if (part.type === 'tool-result')
      messages.push({
        role: 'tool',
        toolName: part.toolName,
        toolCallId: part.toolCallId,
        toolResult: jsonValue(part.result),
      });
  }
  return messages;
}

/** A tool call's input: the JSON it is, or the text when it is none. */
function parsedInput(input: string): unknown {
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/** Any value as protobuf's JSON Value (what JSON would keep of it). */
function jsonValue(value: unknown): Value {
  return fromJson(ValueSchema, JSON.parse(JSON.stringify(value ?? null)) as JsonValue);
}
