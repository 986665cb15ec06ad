import { create, fromJson } from '@bufbuild/protobuf';
import { TurnEventSchema, type TurnEvent } from '@engram/contracts';
import { normalizeTurn, type TurnEnvelope } from './normalize-turn';

const limits = { maxMessagesPerTurn: 10, maxContentChars: 1000 };
const envelope: TurnEnvelope = {
  subject: 'mem.turn.acme.support-bot',
  streamSequence: 42,
  receivedAt: new Date('2026-02-22T12:00:00Z'),
};

function turn(json: object): TurnEvent {
  return fromJson(TurnEventSchema, json as never);
}

describe('normalizeTurn', () => {
  it('shapes a valid turn into transcript rows routed by the subject', () => {
    const result = normalizeTurn(
      turn({
        turnId: 't-1',
        sessionKey: 'session-9',
        channel: 'slack',
        occurredAt: '2026-02-22T11:59:00Z',
        messages: [
          { role: 'user', content: 'Hi, I am Ada', author: 'Ada' },
          {
            role: 'assistant',
            content: 'Hello Ada! [MEMORY:sticky]The user is called Ada.[/MEMORY]',
            createdAt: '2026-02-22T11:59:30Z',
          },
          { role: 'tool', toolName: 'weather', toolArgs: { city: 'Lisbon' }, toolResult: { tempC: 18 } },
        ],
      }),
      envelope,
      limits,
    );
    if (!result.ok) throw new Error(result.reason);
    const { turn: t } = result;
    expect(t).toMatchObject({
      tenantId: 'acme',
      agent: 'support-bot',
      turnId: 't-1',
      sessionKey: 'session-9',
      channel: 'slack',
      streamSequence: 42,
    });
    expect(t.messages.map((m) => [m.position, m.role, m.createdAt.toISOString()])).toEqual([
      [0, 'user', '2026-02-22T11:59:00.000Z'],
      [1, 'assistant', '2026-02-22T11:59:30.000Z'],
      [2, 'tool', '2026-02-22T11:59:00.000Z'],
    ]);
    expect(t.messages[0]!.author).toBe('Ada');
    expect(t.messages[1]!.content).toBe('Hello Ada!');
    expect(t.messages[1]!.rawContent).toBe('Hello Ada! [MEMORY:sticky]The user is called Ada.[/MEMORY]');
    expect(t.messages[1]!.memories).toEqual([
      { type: 'sticky', content: 'The user is called Ada.', index: 0 },
    ]);
    expect(t.messages[2]).toMatchObject({
      content: '',
      toolName: 'weather',
      toolArgs: { city: 'Lisbon' },
      toolResult: { tempC: 18 },
    });
  });

  it('dates messages by the time JetStream received the turn when the runtime gave none', () => {
    const result = normalizeTurn(
      turn({ turnId: 't', sessionKey: 's', messages: [{ role: 'user', content: 'x' }] }),
      envelope,
      limits,
    );
    expect(result.ok && result.turn.messages[0]!.createdAt).toEqual(envelope.receivedAt);
  });

  it('parses tags only in assistant messages', () => {
    const text = 'Remember [MEMORY:sticky]I am a user[/MEMORY]';
    const result = normalizeTurn(
      turn({ turnId: 't', sessionKey: 's', messages: [{ role: 'user', content: text }] }),
      envelope,
      limits,
    );
    expect(result.ok && result.turn.messages[0]).toMatchObject({
      content: text,
      rawContent: null,
      memories: [],
    });
  });

  it('replaces NUL characters, which Postgres cannot store, instead of losing the turn', () => {
    const result = normalizeTurn(
      turn({
        turnId: 't',
        sessionKey: 's',
        messages: [{ role: 'user', content: 'a\u0000b', metadata: { k: 'x\u0000' } }],
      }),
      envelope,
      limits,
    );
    expect(result.ok && result.turn.messages[0]).toMatchObject({
      content: 'a\uFFFDb',
      metadata: { k: 'x\uFFFD' },
    });
  });

  it.each([
    [{ sessionKey: 's', messages: [{ role: 'user', content: 'x' }] }, 'turnId: turnId is required'],
    [{ turnId: 't', messages: [{ role: 'user', content: 'x' }] }, 'sessionKey: sessionKey is required'],
    [{ turnId: 't', sessionKey: 's', messages: [] }, 'messages: a turn needs at least one message'],
    [
      { turnId: 't', sessionKey: 's', messages: [{ role: 'robot', content: 'x' }] },
      'messages[0].role: role must be one of user, assistant, system, tool',
    ],
    [
      { turnId: 't', sessionKey: 's', messages: [{ role: 'user', content: '  ' }] },
      'messages[0]: a message needs content or a tool call',
    ],
    [
      { turnId: 't', sessionKey: 's', messages: [{ role: 'user', content: 'x'.repeat(1001) }] },
      'messages[0].content: content is longer than 1000 characters',
    ],
    [
      { turnId: 't', sessionKey: 's', tenantId: 'other', messages: [{ role: 'user', content: 'x' }] },
      'tenantId "other" does not match the subject\'s tenant "acme"',
    ],
  ])('rejects %j with a reason naming the problem', (json, problem) => {
    const result = normalizeTurn(turn(json), envelope, limits);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(problem);
  });

  it('rejects a turn with more messages than allowed', () => {
    const messages = Array.from({ length: 11 }, () => ({ role: 'user', content: 'x' }));
    const result = normalizeTurn(turn({ turnId: 't', sessionKey: 's', messages }), envelope, limits);
    expect(!result.ok && result.reason).toContain('at most 10 messages');
  });

  it('rejects subjects whose tokens are not tenant and agent ids', () => {
    const event = create(TurnEventSchema, {
      turnId: 't',
      sessionKey: 's',
      messages: [{ role: 'user', content: 'x' }],
    });
    for (const subject of ['mem.turn.acme', 'mem.turn.acme.bot.extra', 'mem.turn.ac%me.bot']) {
      const result = normalizeTurn(event, { ...envelope, subject }, limits);
      expect(!result.ok && result.reason).toContain('is not mem.turn.{tenant}.{agent}');
    }
  });
});
