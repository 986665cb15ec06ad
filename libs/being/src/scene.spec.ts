import {
  embeddingText,
  mergedWhen,
  parseScene,
  sceneToText,
  storedScene,
  withoutParseFailed,
  type Scene,
} from './scene';

const scene = (over: Partial<Scene> = {}): Scene => ({
  action: 'baked bread with Mia',
  actors: ['me', 'Mia'],
  when: ['2026-11-02'],
  dialogue: [],
  sensory: [],
  ...over,
});

describe('parseScene', () => {
  it('reads a scene with action and actors, defaulting the lists', () => {
    const parsed = parseScene('{"action":"walked to the lake","actors":["Ada"],"feeling":"calm"}');
    expect(parsed).toEqual({
      ok: true,
      scene: {
        action: 'walked to the lake',
        actors: ['Ada'],
        when: [],
        dialogue: [],
        sensory: [],
        feeling: 'calm',
      },
    });
  });

  it('accepts when items as dates and as {date, action}', () => {
    const parsed = parseScene(
      JSON.stringify({
        action: 'a',
        actors: ['b'],
        when: ['2026-01-02', { date: '2025-12-24', action: 'x' }],
      }),
    );
    expect(parsed.ok && parsed.scene.when).toEqual(['2026-01-02', { date: '2025-12-24', action: 'x' }]);
  });

  it('keeps a date that is not ISO as the being wrote it (the design\'s own "Day7")', () => {
    const parsed = parseScene(
      JSON.stringify({
        action: 'chose Hashi',
        actors: ['Mia'],
        when: ['Day7', { date: 'Day8', action: 'told Tom' }],
      }),
    );
    expect(parsed.ok && parsed.scene.when).toEqual(['Day7', { date: 'Day8', action: 'told Tom' }]);
    expect(parsed.ok && sceneToText(parsed.scene)).toBe('Day7 — chose Hashi');
  });

  it('names what is missing or wrong', () => {
    const parsed = parseScene('{"actors":[],"when":[" "]}');
    expect(parsed.ok).toBe(false);
    const problems = !parsed.ok ? parsed.problems.join('\n') : '';
    expect(problems).toMatch(/^action: /m);
    expect(problems).toMatch(/^actors: /m);
    expect(problems).toMatch(/^when\.0/m);
  });

  it('says when the text is not JSON at all', () => {
    const parsed = parseScene('{"action": "half');
    expect(parsed).toEqual({ ok: false, problems: [expect.stringMatching(/^not JSON: /)] });
  });
});

describe('sceneToText', () => {
  it('joins date, setting, action, first line of dialogue and feeling', () => {
    expect(
      sceneToText(scene({ setting: 'the kitchen', dialogue: ['smells like home', 'more'], feeling: 'warm' })),
    ).toBe('2026-11-02 — the kitchen — baked bread with Mia — "smells like home" — (warm)');
  });

  it('leaves out what the scene does not have', () => {
    expect(sceneToText(scene({ when: [] }))).toBe('baked bread with Mia');
  });

  it('takes the date of a merged when item', () => {
    expect(sceneToText(scene({ when: [{ date: '2025-01-01', action: 'x' }] }), 'glad')).toBe(
      '2025-01-01 — baked bread with Mia — (glad)',
    );
  });
});

describe('embeddingText', () => {
  it('is when + action + feeling', () => {
    expect(embeddingText(scene({ when: ['2026-11-02', { date: '2026-11-03', action: 'y' }] }), 'warm')).toBe(
      '2026-11-02 2026-11-03 baked bread with Mia warm',
    );
  });
});

describe('mergedWhen', () => {
  it('keeps the survivor items and adds each absorbed date with its action', () => {
    const when = mergedWhen(scene(), [
      { scene: scene({ action: 'bread again', when: ['2026-11-09'] }), madeOn: '2026-11-10' },
      { scene: scene({ action: 'no date', when: [] }), madeOn: '2026-11-11' },
      {
        scene: scene({ action: 'merged before', when: [{ date: '2026-10-01', action: 'first loaf' }] }),
        madeOn: 'x',
      },
    ]);
    expect(when).toEqual([
      '2026-11-02',
      { date: '2026-11-09', action: 'bread again' },
      { date: '2026-11-11', action: 'no date' },
      { date: '2026-10-01', action: 'first loaf' },
    ]);
  });
});

describe('storedScene', () => {
  it('defaults the lists of a scene kept from before being memory', () => {
    expect(storedScene({ action: 'old note', actors: [], setting: 'title' })).toEqual({
      action: 'old note',
      actors: [],
      setting: 'title',
      when: [],
      dialogue: [],
      sensory: [],
    });
    expect(sceneToText(storedScene({ action: 'x' }))).toBe('x');
  });
});

describe('storedScene, of JSON it cannot trust', () => {
  it('reads fields of the wrong type as absent', () => {
    expect(
      storedScene({ action: 3, actors: ['a', 1], when: ['2026-01-01', { date: 5 }, { date: '2026-01-02' }] }),
    ).toEqual({
      action: '',
      actors: ['a'],
      when: ['2026-01-01', { date: '2026-01-02', action: '' }],
      dialogue: [],
      sensory: [],
    });
    expect(storedScene(null).actors).toEqual([]);
  });
});

describe('withoutParseFailed', () => {
  it('takes the mark and its space off a marked note, and leaves any other text as it is', () => {
    expect(withoutParseFailed('[PARSE_FAILED] {"action":"x"}')).toBe('{"action":"x"}');
    expect(withoutParseFailed('[PARSE_FAILED]{"action":"x"}')).toBe('{"action":"x"}');
    expect(withoutParseFailed('[PARSE_FAILED]   two spaces')).toBe('  two spaces');
    expect(withoutParseFailed('{"action":"x"} [PARSE_FAILED]')).toBe('{"action":"x"} [PARSE_FAILED]');
  });
});
