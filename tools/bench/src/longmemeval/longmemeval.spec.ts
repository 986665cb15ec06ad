import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeMessage, timestampDate, TurnEventSchema } from '@engram/contracts';
import {
  loadLongMemEval,
  LongMemEvalFileError,
  parseLongMemEval,
  parseLongMemEvalDate,
} from './longmemeval-file';
import { haystackOf } from './turn-events';

/** A question in the release's format, with two sessions. */
function releasedQuestion(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    question_id: 'q1',
    question_type: 'single-session-user',
    question: 'What degree did I graduate with?',
    answer: 'Business Administration',
    question_date: '2023/05/30 (Tue) 23:40',
    haystack_session_ids: ['s1', 'answer_s2'],
    haystack_dates: ['2023/05/20 (Sat) 02:48', '2023/05/21 (Sun) 14:57'],
    haystack_sessions: [
      [
        { role: 'user', content: 'Plan my week?' },
        { role: 'assistant', content: 'Sure.' },
      ],
      [
        { role: 'user', content: 'I graduated in Business Administration.', has_answer: true },
        { role: 'assistant', content: '' },
      ],
    ],
    answer_session_ids: ['answer_s2'],
    ...overrides,
  };
}

describe('LongMemEval file', () => {
  it('reads the release format: sessions with their dates, turns with their role and evidence', () => {
    const [q] = parseLongMemEval(
      [releasedQuestion(), releasedQuestion({ question_id: 'q1_abs', answer: 42 })],
      'x',
    );
    expect(q).toMatchObject({
      id: 'q1',
      type: 'single-session-user',
      date: new Date('2023-05-30T23:40:00Z'),
      abstention: false,
      answerSessionIds: ['answer_s2'],
    });
    expect(q!.sessions[1]).toMatchObject({
      id: 'answer_s2',
      date: new Date('2023-05-21T14:57:00Z'),
      turns: [
        { role: 'user', content: 'I graduated in Business Administration.', hasAnswer: true },
        { role: 'assistant', content: '', hasAnswer: false },
      ],
    });
    expect(parseLongMemEval([releasedQuestion({ question_id: 'q1_abs' })], 'x')[0]!.abstention).toBe(true);
  });

  it('reads dates as UTC and refuses what is no date', () => {
    expect(parseLongMemEvalDate('2023/01/08 (Sun) 00:05')).toEqual(new Date('2023-01-08T00:05:00Z'));
    expect(parseLongMemEvalDate('2023/02/30 (Thu) 10:00')).toBeNull();
    expect(parseLongMemEvalDate('8 May 2023')).toBeNull();
  });

  it('says where and what is wrong in a file of another format', () => {
    const bad = [
      releasedQuestion({ haystack_dates: ['yesterday'] }),
      releasedQuestion({ question_id: 'q2', question_type: 'trivia' }),
    ];
    expect(() => parseLongMemEval(bad, 'bad.json')).toThrow(LongMemEvalFileError);
    expect(() => parseLongMemEval(bad, 'bad.json')).toThrow(/\[0\]\.haystack_dates\[0\]: expected a date/);
    expect(() => parseLongMemEval(bad, 'bad.json')).toThrow(/\[1\]\.question_type/);
    expect(() => parseLongMemEval([releasedQuestion(), releasedQuestion()], 'x')).toThrow(
      /"q1" appears twice/,
    );
    expect(() => parseLongMemEval({ questions: [] }, 'x')).toThrow(/expected a JSON array of questions/);
  });

  it('refuses haystack lists that are not parallel', () => {
    expect(() => parseLongMemEval([releasedQuestion({ haystack_session_ids: ['s1'] })], 'x')).toThrow(
      /must be parallel lists/,
    );
  });

  it('loads a file from any path, and names it when it is not JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lme-'));
    writeFileSync(join(dir, 'ok.json'), JSON.stringify([releasedQuestion()]));
    writeFileSync(join(dir, 'bad.json'), '[{');
    await expect(loadLongMemEval(join(dir, 'ok.json'))).resolves.toHaveLength(1);
    await expect(loadLongMemEval(join(dir, 'bad.json'))).rejects.toThrow(/bad\.json is not JSON/);
  });
});

describe('LongMemEval haystack as turns', () => {
  const [question] = parseLongMemEval([releasedQuestion()], 'x');

  it('publishes each non-empty turn as the agent named by the question, a conversation per session', () => {
    const haystack = haystackOf(question!, 'lme');
    expect(haystack.agent).toBe('q1');
    expect(haystack.turns.map((t) => [t.subject, t.sessionKey, t.turnId, t.msgId])).toEqual([
      ['mem.turn.lme.q1', 's1', 's1:0', 'q1/s1:0'],
      ['mem.turn.lme.q1', 's1', 's1:1', 'q1/s1:1'],
      ['mem.turn.lme.q1', 'answer_s2', 'answer_s2:0', 'q1/answer_s2:0'],
    ]);
    expect(haystack.emptyTurns).toBe(1);
    const event = decodeMessage(TurnEventSchema, haystack.turns[2]!.payload, { strict: true });
    expect(event.messages).toMatchObject([
      { role: 'user', content: 'I graduated in Business Administration.', author: '' },
    ]);
    expect(timestampDate(event.occurredAt!)).toEqual(new Date('2023-05-21T14:57:00Z'));
  });

  it('knows the evidence at turn and session level', () => {
    const haystack = haystackOf(question!, 'lme');
    expect([...haystack.evidenceTurns]).toEqual(['answer_s2:0']);
    expect([...haystack.evidenceSessions]).toEqual(['answer_s2']);
    expect(haystack.sessionOfTurn.get('s1:1')).toBe('s1');
  });

  it('keeps a session id that stands twice in a haystack as two conversations of one session', () => {
    const [twice] = parseLongMemEval(
      [releasedQuestion({ haystack_session_ids: ['s1', 's1'], answer_session_ids: ['s1'] })],
      'x',
    );
    const haystack = haystackOf(twice!, 'lme');
    expect(new Set(haystack.turns.map((t) => t.sessionKey))).toEqual(new Set(['s1', 's1~2']));
    expect(haystack.sessionOfTurn.get('s1~2:0')).toBe('s1');
    expect(new Set(haystack.turns.map((t) => t.msgId)).size).toBe(haystack.turns.length);
  });

  it('refuses a question id that cannot name an agent', () => {
    const [odd] = parseLongMemEval([releasedQuestion({ question_id: 'q 1' })], 'x');
    expect(() => haystackOf(odd!, 'lme')).toThrow(/cannot name an agent/);
  });
});
