import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadLocomo, LocomoFileError, parseLocomo } from './locomo-file';

type Obj = Record<string, unknown>;
interface Sample extends Obj {
  sample_id: string;
  conversation: Obj;
  qa: Obj[];
}

/** A two-session conversation in the release's format (sessions deliberately out of key order). */
function fixture(): Sample[] {
  return [
    {
      sample_id: 'conv-1',
      conversation: {
        speaker_a: 'Ann',
        speaker_b: 'Bob',
        session_10: [{ speaker: 'Bob', dia_id: 'D10:1', text: 'Later.' }],
        session_10_date_time: '9:00 am on 1 June, 2023',
        session_2: [
          {
            speaker: 'Ann',
            dia_id: 'D2:1',
            text: 'Look!',
            img_url: ['http://x'],
            blip_caption: 'a photo of a dog',
            query: 'dog',
          },
          { speaker: 'Bob', dia_id: 'D2:2', text: 'Nice dog.' },
        ],
        session_2_date_time: '1:56 pm on 8 May, 2023',
      },
      qa: [
        { question: 'What did Ann show?', answer: 'a dog', evidence: ['D2:1'], category: 4 },
        { question: 'When?', answer: 2023, evidence: ['D2:1; D2:2'], category: 2 },
        { question: 'What did Bob hate?', evidence: ['D10:1'], category: 5, adversarial_answer: 'cats' },
      ],
      observation: {},
      session_summary: {},
      event_summary: {},
    },
  ];
}

describe('LoCoMo file', () => {
  it('reads conversations, sessions in number order with their dates, turns and questions', () => {
    const [conversation] = parseLocomo(fixture(), 'f.json');
    expect(conversation!.sampleId).toBe('conv-1');
    expect(conversation!.sessions.map((s) => [s.key, s.number, s.date.toISOString()])).toEqual([
      ['session_2', 2, '2023-05-08T13:56:00.000Z'],
      ['session_10', 10, '2023-06-01T09:00:00.000Z'],
    ]);
    expect(conversation!.sessions[0]!.turns).toEqual([
      { speaker: 'Ann', diaId: 'D2:1', text: 'Look!', blipCaption: 'a photo of a dog' },
      { speaker: 'Bob', diaId: 'D2:2', text: 'Nice dog.' },
    ]);
    expect(conversation!.questions).toEqual([
      { question: 'What did Ann show?', category: 4, evidence: ['D2:1'] },
      { question: 'When?', category: 2, evidence: ['D2:1; D2:2'] },
      { question: 'What did Bob hate?', category: 5, evidence: ['D10:1'] },
    ]);
  });

  const broken = (change: (file: Sample[]) => unknown) => {
    const file = fixture();
    const replaced = change(file);
    return () => parseLocomo(replaced ?? file, 'f.json');
  };
  const turn = (file: Sample[], session: string, index: number) =>
    (file[0]!.conversation[session] as Obj[])[index]!;

  it.each([
    [
      'not an array',
      () => ({ conversations: [] }),
      /f\.json is not a LoCoMo file[\s\S]*\(top level\): expected a JSON array/,
    ],
    ['no conversations', () => [], /no conversations/],
    [
      'a turn without dia_id',
      (f: Sample[]) => void delete turn(f, 'session_2', 1)['dia_id'],
      /\[0\]\.conversation\.session_2\[1\]\.dia_id: Invalid input/,
    ],
    [
      'a session without its date',
      (f: Sample[]) => void delete f[0]!.conversation['session_10_date_time'],
      /session_10 has no session_10_date_time/,
    ],
    [
      'a date that is not one',
      (f: Sample[]) => void (f[0]!.conversation['session_2_date_time'] = 'sometime in May'),
      /session_2_date_time: not a date and time: "sometime in May"/,
    ],
    [
      'a category out of range',
      (f: Sample[]) => void (f[0]!.qa[0]!['category'] = 6),
      /\[0\]\.qa\[0\]\.category: category must be 1, 2, 3, 4 or 5/,
    ],
    [
      'a sample_id that cannot be an agent name',
      (f: Sample[]) => void (f[0]!.sample_id = 'conv 1'),
      /sample_id becomes the agent name/,
    ],
    ['a sample_id twice', (f: Sample[]) => [f[0], f[0]], /sample_id "conv-1" appears twice/],
    [
      'no sessions',
      (f: Sample[]) => void (f[0]!.conversation = { speaker_a: 'A', speaker_b: 'B' }),
      /no session_N with turns/,
    ],
  ])('says what is wrong with %s', (_, change, message) => {
    const parse = broken(change);
    expect(parse).toThrow(LocomoFileError);
    expect(parse).toThrow(message);
  });

  it('reads any path, and says so when it is missing or not JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'locomo-spec-'));
    writeFileSync(join(dir, 'ok.json'), JSON.stringify(fixture()));
    writeFileSync(join(dir, 'bad.json'), '{ not json');
    await expect(loadLocomo(join(dir, 'ok.json'))).resolves.toHaveLength(1);
    await expect(loadLocomo(join(dir, 'bad.json'))).rejects.toThrow(/bad\.json is not JSON/);
    await expect(loadLocomo(join(dir, 'missing.json'))).rejects.toThrow(/cannot read .*missing\.json/);
  });
});
