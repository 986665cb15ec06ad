import { AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import type { ContextBlock } from '@engram/client';
import { promptMessagesOf, turnMessagesOf, valueOf } from './turn-messages';

describe("a graph's messages as an Engram turn", () => {
  it("keeps the user's and the model's words, each tool call and each tool result", () => {
    const messages = [
      new HumanMessage({ content: 'Remember that I am allergic to peanuts.', name: 'Ada' }),
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'call-1', name: 'remember', args: { memory: 'Ada is allergic to peanuts' } }],
      }),
      new ToolMessage({ content: 'Saved.', tool_call_id: 'call-1', name: 'remember' }),
      new AIMessage({ content: [{ type: 'text', text: 'Noted, Ada.' }] }),
    ];
    expect(turnMessagesOf(messages)).toEqual([
      { role: 'user', content: 'Remember that I am allergic to peanuts.', author: 'Ada' },
      {
        role: 'assistant',
        content: '',
        toolName: 'remember',
        toolArgs: valueOf({ memory: 'Ada is allergic to peanuts' }),
        toolCallId: 'call-1',
      },
      { role: 'tool', content: 'Saved.', author: '', toolName: 'remember', toolCallId: 'call-1' },
      { role: 'assistant', content: 'Noted, Ada.', author: '' },
    ]);
  });

  it('leaves out what says nothing: an empty answer, a removal', () => {
    expect(
      turnMessagesOf([new SystemMessage('Be brief.'), new AIMessage(''), new RemoveMessage({ id: 'm-1' })]),
    ).toEqual([{ role: 'system', content: 'Be brief.', author: '' }]);
  });
});

describe('a JSON value as a protobuf Value', () => {
  it('keeps strings, numbers, booleans, lists, objects and null', () => {
    expect(valueOf({ a: ['x', 1, true, null] })).toEqual({
      kind: {
        case: 'structValue',
        value: {
          fields: {
            a: {
              kind: {
                case: 'listValue',
                value: {
                  values: [
                    { kind: { case: 'stringValue', value: 'x' } },
                    { kind: { case: 'numberValue', value: 1 } },
                    { kind: { case: 'boolValue', value: true } },
                    { kind: { case: 'nullValue', value: 0 } },
                  ],
                },
              },
            },
          },
        },
      },
    });
  });
});

describe("Engram's prompt as LangChain messages", () => {
  const block = (role: string, layer: string, text: string) => ({ role, layer, text }) as ContextBlock;

  it('is one leading system message, then the conversation in order', () => {
    const prompt = promptMessagesOf([
      block('system', 'identity', 'You are Rosa.'),
      block('system', 'sticky_facts', 'Ada prefers tea.'),
      block('user', 'recent', 'Hi, I am Ada.'),
      block('assistant', 'recent', 'Hello Ada!'),
    ]);
    expect(prompt.map((m) => [m.type, m.text])).toEqual([
      ['system', 'You are Rosa.\n\nAda prefers tea.'],
      ['human', 'Hi, I am Ada.'],
      ['ai', 'Hello Ada!'],
    ]);
  });

  it('has no system message when Engram gives no system block', () => {
    expect(promptMessagesOf([block('user', 'recent', 'Hi')]).map((m) => m.type)).toEqual(['human']);
  });
});
