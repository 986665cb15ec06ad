import { create, fromJson } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import {
  ConversationSchema,
  timestampDate,
  timestampFromDate,
  TranscriptMessageSchema,
  type MessageInitShape,
  type TranscriptMessage,
} from '@engram/contracts';
import { parseTurnLine, turnLine, turnsOfConversation } from './turn-lines';

const LIMITS = { maxMessagesPerTurn: 1000, maxContentChars: 1_000_000 };
const at = (iso: string) => timestampFromDate(new Date(iso));

function stored(init: MessageInitShape<typeof TranscriptMessageSchema>): TranscriptMessage {
  return create(TranscriptMessageSchema, { conversationId: '12', agent: 'helper', ...init });
}

const conversation = create(ConversationSchema, {
  id: '12',
  agent: 'helper',
  sessionKey: 'chat-7',
  channel: 'web',
  title: 'Trip planning',
  model: 'gpt-4o',
  settings: { lang: 'en' },
});

describe('turnsOfConversation', () => {
  const messages = [
    stored({
      id: '1',
      turnId: 't1',
      role: 'user',
      author: 'Ada',
      content: 'Book a train.',
      createdAt: at('2026-03-01T10:00:00Z'),
    }),
    stored({
      id: '2',
      turnId: 't1',
      role: 'assistant',
      content: 'Booked.',
      rawContent: 'Booked. [STATE:trip]Lisbon[/STATE]',
      createdAt: at('2026-03-01T10:00:01Z'),
    }),
    stored({
      id: '3',
      turnId: 't2',
      role: 'tool',
      content: 'Looked up train 42.',
      contentSynthesised: true,
      toolName: 'train_lookup',
      toolCallId: 'call-9',
      toolArgs: fromJson(ValueSchema, { train: 42 }),
      metadata: { source: 'api' },
      createdAt: at('2026-03-01T10:00:02Z'),
    }),
    // A message of t1 stamped after t2's: it stays in t1, which keeps its place.
    stored({
      id: '4',
      turnId: 't1',
      role: 'assistant',
      content: 'Anything else?',
      createdAt: at('2026-03-01T10:00:03Z'),
    }),
  ];

  it('gives a turn per turn id in the order of its first message, each message as published', () => {
    const turns = turnsOfConversation(conversation, messages);
    expect(turns.map((t) => [t.turnId, t.messages.map((m) => m.content)])).toEqual([
      ['t1', ['Book a train.', 'Booked. [STATE:trip]Lisbon[/STATE]', 'Anything else?']],
      ['t2', ['']],
    ]);
    const tool = turns[1]!.messages[0]!;
    expect(tool).toMatchObject({
      role: 'tool',
      toolName: 'train_lookup',
      toolCallId: 'call-9',
      metadata: { source: 'api' },
    });
    expect(tool.toolArgs).toEqual(fromJson(ValueSchema, { train: 42 }));
    expect(timestampDate(tool.createdAt!).toISOString()).toBe('2026-03-01T10:00:02.000Z');
  });

  it('puts the conversation’s attributes on its first turn only', () => {
    const [first, second] = turnsOfConversation(conversation, messages).map((t) => JSON.parse(turnLine(t)));
    expect(first).toMatchObject({
      turnId: 't1',
      agent: 'helper',
      sessionKey: 'chat-7',
      channel: 'web',
      title: 'Trip planning',
      model: 'gpt-4o',
      settings: { lang: 'en' },
    });
    expect(Object.keys(second).sort()).toEqual(['agent', 'messages', 'sessionKey', 'turnId']);
    expect(first.messages[0]).toEqual({
      role: 'user',
      content: 'Book a train.',
      author: 'Ada',
      createdAt: '2026-03-01T10:00:00Z',
    });
  });

  it('writes lines that read back as the same turns', () => {
    for (const turn of turnsOfConversation(conversation, messages)) {
      const line = turnLine(turn);
      const read = parseTurnLine(line, { tenantId: 'globex', limits: LIMITS });
      expect(read).toMatchObject({ kind: 'turn', agent: 'helper' });
      expect(read.kind === 'turn' && turnLine(read.turn)).toBe(line);
    }
  });
});

describe('parseTurnLine', () => {
  const read = (line: string, agent?: string) =>
    parseTurnLine(line, { tenantId: 'acme', limits: LIMITS, ...(agent && { agent }) });
  const turn = (extra: object = {}) =>
    JSON.stringify({ turnId: 't1', sessionKey: 's', messages: [{ role: 'user', content: 'hi' }], ...extra });

  it('skips blank lines', () => {
    expect(read('   ')).toEqual({ kind: 'blank' });
  });

  it('sends a turn to --agent when given, else to the agent it names; never to the tenant it names', () => {
    expect(read(turn({ agent: 'a1' }))).toMatchObject({ kind: 'turn', agent: 'a1' });
    const moved = read(turn({ agent: 'a1', tenantId: 'other' }), 'a2');
    expect(moved).toMatchObject({ kind: 'turn', agent: 'a2', turn: { agent: 'a2', tenantId: '' } });
    expect(read(turn())).toEqual({ kind: 'refused', problems: ['the turn names no agent (give --agent)'] });
  });

  it('refuses what ingest would refuse, saying why', () => {
    expect(read('{"turnId": ', 'a')).toMatchObject({
      kind: 'refused',
      problems: [expect.stringMatching(/^not a TurnEvent: /)],
    });
    expect(read(turn({ colour: 'red' }), 'a')).toMatchObject({
      kind: 'refused',
      problems: [expect.stringContaining('colour')],
    });
    expect(
      read(JSON.stringify({ turnId: 't1', messages: [{ role: 'narrator', content: 'x' }] }), 'a'),
    ).toEqual({
      kind: 'refused',
      problems: [
        'sessionKey: sessionKey is required',
        'messages[0].role: role must be one of user, assistant, system, tool',
      ],
    });
  });
});
