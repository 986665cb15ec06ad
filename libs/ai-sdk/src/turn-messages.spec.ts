import { toJson } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import type { Prompt } from './ai-sdk-types';
import { answerMessages, stepOf, type TurnMessageInit } from './turn-messages';

/** A message as Engram will store it, its tool values as JSON. */
const stored = (m: TurnMessageInit) => ({
  role: m.role,
  content: m.content ?? '',
  ...(m.toolName && { toolName: m.toolName, toolCallId: m.toolCallId }),
  ...(m.toolArgs && { toolArgs: toJson(ValueSchema, m.toolArgs as never) }),
  ...(m.toolResult && { toolResult: toJson(ValueSchema, m.toolResult as never) }),
});

const question: Prompt = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'text', text: 'Remember: I prefer metric units.' }] },
];
const toolCall = {
  role: 'assistant' as const,
  content: [
    {
      type: 'tool-call' as const,
      toolCallId: 'c1',
      toolName: 'memory_save',
      input: { content: 'Ada prefers metric units.' },
    },
  ],
};
const toolResult = {
  role: 'tool' as const,
  content: [
    {
      type: 'tool-result' as const,
      toolCallId: 'c1',
      toolName: 'memory_save',
      output: { type: 'text' as const, value: 'Remembered as fact:6.' },
    },
  ],
};

describe('the step a prompt asks for', () => {
  it("is the first when nothing follows the user's message, and stores that message", () => {
    const step = stepOf(question)!;
    expect([step.step, step.question, step.userIndex]).toEqual([0, 'Remember: I prefer metric units.', 1]);
    expect(step.input.map(stored)).toEqual([{ role: 'user', content: 'Remember: I prefer metric units.' }]);
  });

  it('is a later one after a tool call, and stores the tool results the prompt carries back', () => {
    const failed = {
      role: 'tool' as const,
      content: [
        {
          type: 'tool-result' as const,
          toolCallId: 'c2',
          toolName: 'order_lookup',
          output: { type: 'error-text' as const, value: 'no order 9' },
        },
      ],
    };
    const step = stepOf([...question, toolCall, toolResult, failed])!;
    expect(step.step).toBe(1);
    expect(step.input.map(stored)).toEqual([
      {
        role: 'tool',
        content: 'Remembered as fact:6.',
        toolName: 'memory_save',
        toolCallId: 'c1',
        toolResult: 'Remembered as fact:6.',
      },
      {
        role: 'tool',
        content: 'no order 9',
        toolName: 'order_lookup',
        toolCallId: 'c2',
        toolResult: { error: 'no order 9' },
      },
    ]);
  });

  it('is none when the prompt has no user message with text', () => {
    expect(stepOf([{ role: 'system', content: 'Be brief.' }])).toBeUndefined();
    expect(stepOf([{ role: 'user', content: [{ type: 'text', text: '  ' }] }])).toBeUndefined();
  });
});

describe("the model's answer as Engram's messages", () => {
  it('is its text in one message, and each tool call with its parsed arguments', () => {
    const messages = answerMessages([
      { type: 'reasoning', text: 'The user wants it kept.' },
      { type: 'text', text: 'Saving ' },
      { type: 'text', text: 'that.' },
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'memory_save',
        input: '{"content":"Ada prefers metric units."}',
      },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'echo', input: 'not json' },
    ]);
    expect(messages.map(stored)).toEqual([
      { role: 'assistant', content: 'Saving that.' },
      {
        role: 'assistant',
        content: '',
        toolName: 'memory_save',
        toolCallId: 'c1',
        toolArgs: { content: 'Ada prefers metric units.' },
      },
      { role: 'assistant', content: '', toolName: 'echo', toolCallId: 'c2', toolArgs: 'not json' },
    ]);
  });
});
