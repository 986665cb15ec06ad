import { toJson, type JsonObject } from '@bufbuild/protobuf';
import { ValueSchema, type Value } from '@bufbuild/protobuf/wkt';
import type { AgentInputItem } from '@openai/agents-core';
import {
  editMessage,
  entriesOf,
  sessionItemsOf,
  turnIdOf,
  turnMessagesOf,
  type SessionEntry,
  type TurnMessageInit,
} from './session-items';

const userSays: AgentInputItem = { type: 'message', role: 'user', content: 'I prefer window seats.' };
const call: AgentInputItem = {
  type: 'function_call',
  name: 'remember',
  callId: 'call-1',
  status: 'completed',
  arguments: '{"fact":"Ada prefers window seats."}',
};
const result: AgentInputItem = {
  type: 'function_call_result',
  name: 'remember',
  callId: 'call-1',
  status: 'completed',
  output: { type: 'text', text: 'Remembered.' },
};
const reply: AgentInputItem = {
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text: 'Noted: a window seat.' }],
};

/** The entries of turns as Engram stores them: one message per item, in order. */
function stored(...turns: Array<[string, TurnMessageInit[]]>): SessionEntry[] {
  return entriesOf(
    turns.flatMap(([turnId, messages]) =>
      messages.map((m) => ({
        turnId,
        role: m.role!,
        content: m.content!,
        metadata: m.metadata as JsonObject,
      })),
    ),
  );
}

const json = (value: unknown) => (value ? toJson(ValueSchema, value as Value) : undefined);

describe('session items as Engram messages', () => {
  it('gives each item the role, text and tool fields Engram searches and shows', () => {
    const messages = turnMessagesOf([userSays, call, result, reply]);
    expect(
      messages.map((m) => ({
        role: m.role,
        content: m.content,
        tool: m.toolName,
        callId: m.toolCallId,
        args: json(m.toolArgs),
        result: json(m.toolResult),
      })),
    ).toEqual(
      [
        { role: 'user', content: 'I prefer window seats.' },
        {
          role: 'assistant',
          content: '',
          tool: 'remember',
          callId: 'call-1',
          args: { fact: 'Ada prefers window seats.' },
        },
        {
          role: 'tool',
          content: 'Remembered.',
          tool: 'remember',
          callId: 'call-1',
          result: { type: 'text', text: 'Remembered.' },
        },
        { role: 'assistant', content: 'Noted: a window seat.' },
      ].map((m) => expect.objectContaining(m)),
    );
  });

  it('names a message without words by its kinds, since Engram keeps no empty message', () => {
    const image: AgentInputItem = {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_image', image: 'https://example.com/seat-map.png' }],
    };
    expect(turnMessagesOf([image])[0]!.content).toBe('[input_image]');
  });

  it('gives back exactly the items it published, bytes and all, in order', () => {
    const photo: AgentInputItem = {
      type: 'function_call_result',
      name: 'seat_map',
      callId: 'call-2',
      status: 'completed',
      output: { type: 'image', image: { data: new Uint8Array([1, 2, 250]), mediaType: 'image/png' } },
    };
    const entries = stored(
      ['t1', turnMessagesOf([userSays, call, result])],
      ['t2', turnMessagesOf([photo, reply])],
    );
    expect(sessionItemsOf(entries).map((held) => held.item)).toEqual([userSays, call, result, photo, reply]);
  });

  it('leaves out an item a drop names, and everything before a clear', () => {
    const entries = stored(
      ['t1', turnMessagesOf([userSays, reply])],
      ['t2', [editMessage({ drop: { turnId: 't1', position: 1 } })]],
    );
    expect(sessionItemsOf(entries).map((held) => held.item)).toEqual([userSays]);

    const cleared = stored(
      ['t1', turnMessagesOf([userSays, reply])],
      ['t2', [editMessage({ clear: true })]],
      ['t3', turnMessagesOf([call, result])],
    );
    expect(sessionItemsOf(cleared).map((held) => held.item)).toEqual([call, result]);
  });

  it('reads messages another runtime published as plain messages, and skips tool results it cannot pair', () => {
    const entries = entriesOf([
      { turnId: 'x1', role: 'user', content: 'Hello from the web chat.' },
      { turnId: 'x1', role: 'tool', content: '{"ok":true}' },
      { turnId: 'x1', role: 'assistant', content: 'Hello, Ada.' },
    ]);
    expect(sessionItemsOf(entries).map((held) => held.item)).toEqual([
      { type: 'message', role: 'user', content: 'Hello from the web chat.' },
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hello, Ada.' }],
      },
    ]);
  });

  it('numbers messages within their turn, which is how an edit names one', () => {
    const entries = entriesOf(['a', 'a', 'b', 'a'].map((turnId) => ({ turnId, role: 'user', content: 'x' })));
    expect(entries.map((e) => e.position)).toEqual([0, 1, 0, 0]);
  });

  it('keys a turn by its messages and the turn before: a retry is the same turn, the same words later a new one', () => {
    const messages = turnMessagesOf([userSays]);
    expect(turnIdOf('chat-7', 't1', messages)).toBe(turnIdOf('chat-7', 't1', turnMessagesOf([userSays])));
    expect(turnIdOf('chat-7', 't2', messages)).not.toBe(turnIdOf('chat-7', 't1', messages));
    expect(turnIdOf('chat-8', 't1', messages)).not.toBe(turnIdOf('chat-7', 't1', messages));
    expect(turnIdOf('chat-7', 't1', messages)).toMatch(/^agents-[0-9a-f]{40}$/);
  });
});
