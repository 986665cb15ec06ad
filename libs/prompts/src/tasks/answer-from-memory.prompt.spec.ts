import {
  ANSWER_FROM_MEMORY_LIMITS,
  MEMORY_ANSWER_JSON_SCHEMA,
  parseTaskInput,
  renderTaskPrompt,
} from '../index';

describe('answer_from_memory', () => {
  const hits = [
    {
      id: 'message:12',
      kind: 'message',
      content: 'Two cats,\n  Bailey and Oliver.',
      createdAt: '2026-06-01T10:04:30Z',
      author: 'Ada',
    },
    {
      id: 'fact:3',
      kind: 'fact',
      content: 'Ada prefers tea over coffee',
      createdAt: '2026-05-03T08:00:00+02:00',
    },
  ];

  it('asks for a short, cited answer from the items only, as JSON, each item on one line with its id, time and author', () => {
    const input = parseTaskInput('answer_from_memory', { question: ' What are the cats called? ', hits });
    if (!input.ok) throw new Error(input.problems.join('; '));
    const prompt = renderTaskPrompt('answer_from_memory', input.value);
    const [system, user] = prompt.messages;
    expect(system!.content).toMatch(/only the memory items/);
    expect(system!.content).toMatch(/square brackets/);
    expect(system!.content).toMatch(/memory does not hold it/);
    expect(user!.content).toBe(
      'Question: What are the cats called?\n\n' +
        'Memory items:\n' +
        '[message:12] 2026-06-01T10:04Z message by Ada: Two cats, Bailey and Oliver.\n' +
        '[fact:3] 2026-05-03T06:00Z fact: Ada prefers tea over coffee',
    );
    expect(prompt.jsonSchema).toBe(MEMORY_ANSWER_JSON_SCHEMA);
    expect(prompt.schemaName).toBe('memory_answer');
    expect(MEMORY_ANSWER_JSON_SCHEMA).toMatchObject({
      required: ['answer', 'citedIds'],
      additionalProperties: false,
    });
  });

  it('refuses an input without a question or hits, with ids that are not refs, or beyond its bounds', () => {
    expect(parseTaskInput('answer_from_memory', { question: '  ', hits })).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^question:/)],
    });
    expect(parseTaskInput('answer_from_memory', { question: 'cats?', hits: [] })).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^hits:/)],
    });
    const bad = parseTaskInput('answer_from_memory', {
      question: 'cats?',
      hits: [
        {
          id: '12',
          kind: 'note',
          content: 'x'.repeat(ANSWER_FROM_MEMORY_LIMITS.contentChars + 1),
          createdAt: 'June',
        },
      ],
    });
    expect(bad).toEqual({
      ok: false,
      problems: expect.arrayContaining([
        expect.stringMatching(/^hits\[0\]\.id: is not a ref/),
        expect.stringMatching(/^hits\[0\]\.kind:/),
        expect.stringMatching(/^hits\[0\]\.content:/),
        expect.stringMatching(/^hits\[0\]\.createdAt:/),
      ]),
    });
    const many = Array.from({ length: ANSWER_FROM_MEMORY_LIMITS.hits + 1 }, (_, i) => ({
      ...hits[0]!,
      id: `message:${i}`,
    }));
    expect(parseTaskInput('answer_from_memory', { question: 'cats?', hits: many })).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^hits:/)],
    });
  });
});
