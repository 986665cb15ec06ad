import { toJson, type JsonObject } from '@bufbuild/protobuf';
import { ValueSchema, type Value } from '@bufbuild/protobuf/wkt';
import { timestampDate, timestampFromDate, type TranscriptMessage } from '@engram/client';
import type { MastraDBMessage } from '@mastra/core/memory' with { 'resolution-mode': 'import' };
import {
  mastraMessagesOf,
  resourceAgent,
  threadOf,
  threadSettings,
  turnIdOf,
  turnMessagesOf,
  type TurnMessageInit,
} from './mastra-messages';

const thread = { id: 'trip', resourceId: 'ada' };
const at = (second: number) => new Date(Date.UTC(2026, 2, 1, 9, 0, second));

const asked: MastraDBMessage = {
  id: 'm1',
  role: 'user',
  createdAt: at(1),
  threadId: 'trip',
  resourceId: 'ada',
  content: {
    format: 2,
    parts: [{ type: 'text', text: 'Book the 9:40 to Lyon.' }],
    content: 'Book the 9:40 to Lyon.',
  },
};
const booked: MastraDBMessage = {
  id: 'm2',
  role: 'assistant',
  createdAt: at(2),
  threadId: 'trip',
  resourceId: 'ada',
  content: {
    format: 2,
    parts: [
      {
        type: 'tool-invocation',
        toolInvocation: {
          state: 'result',
          toolCallId: 'call-1',
          toolName: 'book',
          args: { train: '9:40' },
          result: { seat: '12A' },
        },
      },
    ],
  },
};

/** The transcript Engram keeps of published messages: one row per message, with a stored id. */
function stored(messages: readonly TurnMessageInit[], turnId = 't1'): TranscriptMessage[] {
  return messages.map(
    (m, i) =>
      ({
        id: `${100 + i}`,
        turnId,
        role: m.role!,
        content: m.content!,
        metadata: JSON.parse(JSON.stringify(m.metadata)) as JsonObject,
        createdAt: m.createdAt,
      }) as TranscriptMessage,
  );
}

describe('Mastra messages as Engram messages', () => {
  it('gives each message its role, text and time, and a message that is only a tool call its tool fields', () => {
    const [user, tool] = turnMessagesOf([asked, booked]);
    expect(user).toMatchObject({ role: 'user', content: 'Book the 9:40 to Lyon.' });
    expect(timestampDate(user!.createdAt as never)).toEqual(at(1));
    expect({
      ...tool,
      toolArgs: toJson(ValueSchema, tool!.toolArgs as Value),
      toolResult: toJson(ValueSchema, tool!.toolResult as Value),
    }).toMatchObject({
      role: 'assistant',
      content: '',
      toolName: 'book',
      toolCallId: 'call-1',
      toolArgs: { train: '9:40' },
      toolResult: { seat: '12A' },
    });
  });

  it('names a message without words or tools by its parts, since Engram keeps no empty message', () => {
    const image: MastraDBMessage = {
      ...asked,
      content: { format: 2, parts: [{ type: 'file', mimeType: 'image/png', data: 'AAAA' }] },
    };
    expect(turnMessagesOf([image])[0]!.content).toBe('[file]');
  });

  it('gives back exactly the messages it published, in order', () => {
    expect(mastraMessagesOf(stored(turnMessagesOf([asked, booked])), thread)).toEqual([asked, booked]);
  });

  it('gives a message saved again with new words as its newest version, in its first place', () => {
    const corrected = {
      ...asked,
      content: {
        ...asked.content,
        parts: [{ type: 'text' as const, text: 'Book the 10:10.' }],
        content: 'Book the 10:10.',
      },
    };
    const transcript = [
      ...stored(turnMessagesOf([asked, booked])),
      ...stored(turnMessagesOf([corrected]), 't2'),
    ];
    expect(mastraMessagesOf(transcript, thread)).toEqual([corrected, booked]);
  });

  it('reads what another runtime published as plain text, leaving out its tool and system messages', () => {
    const foreign = [
      { id: '7', role: 'user', content: 'Hi from the web chat.', createdAt: timestampFromDate(at(5)) },
      { id: '8', role: 'tool', content: '{"ok":true}' },
      { id: '9', role: 'system', content: 'Be brief.' },
    ] as TranscriptMessage[];
    expect(mastraMessagesOf(foreign, thread)).toEqual([
      {
        id: 'engram-7',
        role: 'user',
        createdAt: at(5),
        threadId: 'trip',
        resourceId: 'ada',
        content: {
          format: 2,
          parts: [{ type: 'text', text: 'Hi from the web chat.' }],
          content: 'Hi from the web chat.',
        },
      },
    ]);
  });

  it('keys a save by its messages: saved again it is the same turn, changed it is another', () => {
    const turn = turnMessagesOf([asked, booked]);
    expect(turnIdOf('trip', turn)).toBe(turnIdOf('trip', turnMessagesOf([asked, booked])));
    expect(turnIdOf('trip', turnMessagesOf([asked]))).not.toBe(turnIdOf('trip', turn));
    expect(turnIdOf('other', turn)).not.toBe(turnIdOf('trip', turn));
    expect(turnIdOf('trip', turn)).toMatch(/^mastra-[0-9a-f]{40}$/);
  });
});

describe('threads as Engram conversations', () => {
  it('keeps a thread in its conversation: the session key, title, and the resource, metadata and creation time in its settings', () => {
    const trip = {
      id: 'trip',
      resourceId: 'carl@example.com',
      title: 'Trip',
      metadata: { kind: 'travel' },
      createdAt: at(1),
      updatedAt: at(1),
    };
    const conversation = {
      agent: resourceAgent('carl@example.com'),
      sessionKey: 'trip',
      title: 'Trip',
      settings: threadSettings(trip),
      lastMessageAt: timestampFromDate(at(9)),
    };
    expect(threadOf(conversation)).toEqual({ ...trip, updatedAt: at(9) });
  });

  it('reads a conversation no Mastra thread made as a thread of its agent', () => {
    const conversation = {
      agent: 'concierge',
      sessionKey: 'chat-7',
      title: '',
      createdAt: timestampFromDate(at(3)),
    };
    expect(threadOf(conversation)).toEqual({
      id: 'chat-7',
      resourceId: 'concierge',
      title: '',
      metadata: {},
      createdAt: at(3),
      updatedAt: at(3),
    });
  });

  it('makes each resource an agent: its id when it is a valid agent name, else a safe name that is always the same', () => {
    expect(resourceAgent('ada')).toBe('ada');
    expect(resourceAgent('carl@example.com')).toMatch(/^carl_example_com-[0-9a-f]{8}$/);
    expect(resourceAgent('carl@example.com')).toBe(resourceAgent('carl@example.com'));
    expect(resourceAgent('carl@example.org')).not.toBe(resourceAgent('carl@example.com'));
  });
});
