import { TurnEventSchema, decodeMessage, timestampDate } from '@engram/contracts';
import { parseLocomo } from '@engram/memory-core';
import { dayAfterLastSession, locomoTurnEvents, sessionsOutOfOrder, turnContent } from './turn-events';

describe('LoCoMo turns as TurnEvents', () => {
  const conversations = parseLocomo(
    [
      {
        sample_id: 'conv-1',
        conversation: {
          speaker_a: 'Ann',
          speaker_b: 'Bob',
          session_10: [{ speaker: 'Bob', dia_id: 'D10:1', text: 'Later.' }],
          session_10_date_time: '9:00 am on 1 June, 2023',
          session_2: [
            { speaker: 'Ann', dia_id: 'D2:1', text: 'Look!', blip_caption: 'a photo of a dog' },
            { speaker: 'Bob', dia_id: 'D2:2', text: 'Nice dog.' },
          ],
          session_2_date_time: '1:56 pm on 8 May, 2023',
        },
        qa: [],
      },
    ],
    'f.json',
  );

  it('publishes one single-message turn per LoCoMo turn, in session and turn order, for agent = sample_id', () => {
    const turns = locomoTurnEvents(conversations, 'locomo');
    expect(turns.map((t) => [t.subject, t.sessionKey, t.turnId, t.msgId])).toEqual([
      ['mem.turn.locomo.conv-1', 'session_2', 'D2:1', 'conv-1/D2:1'],
      ['mem.turn.locomo.conv-1', 'session_2', 'D2:2', 'conv-1/D2:2'],
      ['mem.turn.locomo.conv-1', 'session_10', 'D10:1', 'conv-1/D10:1'],
    ]);
    const event = decodeMessage(TurnEventSchema, turns[0]!.payload, { strict: true });
    expect(event.turnId).toBe('D2:1');
    expect(event.sessionKey).toBe('session_2');
    expect(timestampDate(event.occurredAt!).toISOString()).toBe('2023-05-08T13:56:00.000Z');
    expect(event.messages).toHaveLength(1);
    expect(event.messages[0]).toMatchObject({
      role: 'user',
      author: 'Ann',
      content: 'Look! [image: a photo of a dog]',
    });
    expect(decodeMessage(TurnEventSchema, turns[2]!.payload, { strict: true }).messages[0]).toMatchObject({
      author: 'Bob',
      content: 'Later.',
    });
  });

  it('appends the caption of a shared photo to the text', () => {
    expect(turnContent({ speaker: 'A', diaId: 'D1:1', text: 'Hi', blipCaption: 'a cat' })).toBe(
      'Hi [image: a cat]',
    );
    expect(turnContent({ speaker: 'A', diaId: 'D1:1', text: 'Hi' })).toBe('Hi');
  });

  it('finds sessions stored out of the dataset order, or incompletely', () => {
    const stored = [
      { agent: 'conv-1', sessionKey: 'session_2', turnIds: ['D2:1', 'D2:2'] },
      { agent: 'conv-1', sessionKey: 'session_10', turnIds: ['D10:1'] },
    ];
    expect(sessionsOutOfOrder(conversations, stored)).toEqual([]);
    expect(
      sessionsOutOfOrder(conversations, [{ ...stored[0]!, turnIds: ['D2:2', 'D2:1'] }, stored[1]!]),
    ).toEqual(['conv-1/session_2']);
    expect(sessionsOutOfOrder(conversations, [stored[0]!])).toEqual(['conv-1/session_10']);
  });

  it('asks about a conversation the day after its last session, whatever the order of the sessions', () => {
    expect(dayAfterLastSession(conversations[0]!)).toEqual(new Date('2023-06-02T09:00:00Z'));
  });
});
