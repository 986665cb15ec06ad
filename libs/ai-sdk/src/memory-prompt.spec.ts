import type { Prompt } from './ai-sdk-types';
import { notYetInMemory, promptWithMemory, type MemoryBlock } from './memory-prompt';
import { promptLines } from './testing/ai-sdk';

const user = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });
const assistant = (text: string) => ({
  role: 'assistant' as const,
  content: [{ type: 'text' as const, text }],
});
const block = (layer: string, role: string, text: string): MemoryBlock => ({ layer, role, text });

describe('the prompt with Engram memory', () => {
  const context = [
    block('identity', 'system', 'You are Rosa.'),
    block('tools', 'system', 'Tools: order_lookup'),
    block('sticky_facts', 'system', 'Ada prefers metric units.'),
    block('recent', 'user', 'Hi, I am Ada.'),
    block('recent', 'assistant', 'Hello Ada!'),
  ];

  it("leads with Engram's stable prefix, then the caller's system prompt, Engram's other blocks, and the user's message", () => {
    const prompt: Prompt = [
      { role: 'system', content: 'Answer in one line.' },
      user('How tall is Mont Blanc?'),
    ];

    expect(promptLines(promptWithMemory(context, prompt))).toEqual([
      'system: You are Rosa.',
      'system: Tools: order_lookup',
      'system: Answer in one line.',
      'system: Ada prefers metric units.',
      'user: Hi, I am Ada.',
      'assistant: Hello Ada!',
      'user: How tall is Mont Blanc?',
    ]);
  });

  it("says the caller's history once: what Engram shows goes, what it does not hold yet stays", () => {
    const prompt: Prompt = [
      user('Hi, I am Ada.'),
      assistant('Hello Ada!'),
      user('I live in Lyon.'),
      assistant('Noted.'),
      user('How far is Geneva?'),
    ];

    expect(promptLines(promptWithMemory(context, prompt)).slice(3)).toEqual([
      'user: Hi, I am Ada.',
      'assistant: Hello Ada!',
      'user: I live in Lyon.',
      'assistant: Noted.',
      'user: How far is Geneva?',
    ]);
  });

  it('keeps the steps of this turn after the user message, and leaves out blocks without text', () => {
    const toolCall = {
      role: 'assistant' as const,
      content: [{ type: 'tool-call' as const, toolCallId: 'c1', toolName: 'memory_search', input: {} }],
    };
    const prompt: Prompt = [user('What do I prefer?'), toolCall];

    expect(
      promptLines(promptWithMemory([...context, block('recent', 'assistant', '  ')], prompt)).slice(-2),
    ).toEqual(['user: What do I prefer?', 'assistant: tool-call']);
  });
});

describe("the caller's messages Engram does not hold yet", () => {
  const history = [
    user('Write the report.'),
    assistant('Part 1 done. Go on?'),
    user('yes'),
    assistant('Part 2 done. Go on?'),
    user('yes'),
    assistant('Part 3 done. Go on?'),
  ];

  it('are all of them while Engram shows none of their user messages', () => {
    expect(notYetInMemory(history, [])).toEqual(history);
    expect(notYetInMemory(history, [block('recent', 'user', 'Something else.')])).toEqual(history);
  });

  it("are those after the turn of Engram's newest user message, placed by the user messages before it", () => {
    const recent = [
      block('recent', 'user', 'Write the report.'),
      block('recent', 'assistant', 'Part 1 done. Go on?'),
      block('recent', 'user', 'yes'),
      block('recent', 'assistant', 'Part 2 done. Go on?'),
    ];
    expect(notYetInMemory(history, recent)).toEqual(history.slice(4));
    expect(notYetInMemory(history.slice(0, 4), recent)).toEqual([]);
  });
});
