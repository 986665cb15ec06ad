import {
  CLUSTER_SPLIT_JSON_SCHEMA,
  parseTaskInput,
  renderTaskPrompt,
  REPAIRED_SCENE_JSON_SCHEMA,
  SCENE_CONSOLIDATION_JSON_SCHEMA,
  SCENE_TASK_LIMITS,
  THINK_NOTES_JSON_SCHEMA,
  type TaskName,
} from '../index';

/** The parsed input, or the test fails with its problems. */
function parsed<T extends TaskName>(task: T, input: unknown) {
  const result = parseTaskInput(task, input);
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.value;
}

/** The problems of an input expected to be refused. */
function problemsOf(task: TaskName, input: unknown): string[] {
  const result = parseTaskInput(task, input);
  if (result.ok) throw new Error(`${task} accepted ${JSON.stringify(input)}`);
  return result.problems;
}

const being = {
  name: 'Mira',
  personality: 'Curious,\n  warm and a little shy.',
  voice: 'Short sentences; dry humour.',
};
const node = (id: string, scene: string, extra: object = {}) => ({
  id,
  scene,
  importance: 0.5,
  status: 'active',
  fresh: false,
  pinned: false,
  ...extra,
});

describe('consolidate_scenes', () => {
  const nodes = [
    node('41', '2026-11-02 — the kitchen — baked bread with Mia — "smells like home" — (warm)', {
      importance: 0.8,
      pinned: true,
    }),
    node('42', '2026-11-02 — the kitchen — Mia and I\n  baked bread', { fresh: true }),
    node('43', '2026-10-01 — the hallway — a delivery came', { importance: 0.1, status: 'dying' }),
  ];

  it('asks to merge repeats and make dead what no longer matters, never a pinned scene, each scene with its id and state', () => {
    const input = parsed('consolidate_scenes', { being, cluster: { name: 'Baking' }, nodes });
    const prompt = renderTaskPrompt('consolidate_scenes', input);
    const [system, user] = prompt.messages;
    expect(system!.content).toContain('scene memory of Mira, an AI being');
    expect(system!.content).toContain('as this personality would: Curious, warm and a little shy.');
    expect(system!.content).toMatch(/same moment or repeat each other.*best wording/);
    expect(system!.content).toMatch(/Never absorb or make dead a pinned scene/);
    expect(system!.content).toContain('Use only the ids you are given.');
    expect(user!.content).toBe(
      'Cluster: Baking\n\nScenes:\n' +
        '[41] (0.80, active, pinned) 2026-11-02 — the kitchen — baked bread with Mia — "smells like home" — (warm)\n' +
        '[42] (0.50, active, fresh) 2026-11-02 — the kitchen — Mia and I baked bread\n' +
        '[43] (0.10, dying) 2026-10-01 — the hallway — a delivery came',
    );
    expect(prompt.jsonSchema).toBe(SCENE_CONSOLIDATION_JSON_SCHEMA);
    expect(prompt.schemaName).toBe('scene_consolidation');
    expect(SCENE_CONSOLIDATION_JSON_SCHEMA).toMatchObject({
      required: ['merges', 'makeDead'],
      additionalProperties: false,
    });
  });

  it('speaks of an AI being when it has no name or personality', () => {
    const input = parsed('consolidate_scenes', { being: {}, cluster: { name: 'Baking' }, nodes });
    const system = renderTaskPrompt('consolidate_scenes', input).messages[0]!.content;
    expect(system).toMatch(/^You tidy the scene memory of an AI being:/);
    expect(system).not.toContain('personality');
  });

  it('refuses no nodes, too many, repeated ids, and fields out of their bounds', () => {
    const cluster = { name: 'Baking' };
    expect(problemsOf('consolidate_scenes', { being, cluster, nodes: [] })).toEqual([
      expect.stringMatching(/^nodes:/),
    ]);
    const many = Array.from({ length: SCENE_TASK_LIMITS.consolidateNodes + 1 }, (_, i) => node(`${i}`, 'x'));
    expect(problemsOf('consolidate_scenes', { being, cluster, nodes: many })).toEqual([
      expect.stringMatching(/^nodes:/),
    ]);
    expect(
      problemsOf('consolidate_scenes', { being, cluster, nodes: [node('7', 'a'), node('7', 'b')] }),
    ).toEqual(['nodes[1].id: repeats node 7']);
    const bad = problemsOf('consolidate_scenes', {
      being: { personality: 'p'.repeat(SCENE_TASK_LIMITS.personalityChars + 1) },
      cluster: { name: '  ' },
      nodes: [
        node('', '   ', { importance: 1.5, status: 'dead', fresh: 'yes' }),
        node('2', 's'.repeat(SCENE_TASK_LIMITS.sceneChars + 1)),
      ],
    });
    expect(bad).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^being\.personality:/),
        expect.stringMatching(/^cluster\.name:/),
        expect.stringMatching(/^nodes\[0\]\.id:/),
        expect.stringMatching(/^nodes\[0\]\.scene:/),
        expect.stringMatching(/^nodes\[0\]\.importance:/),
        expect.stringMatching(/^nodes\[0\]\.status:/),
        expect.stringMatching(/^nodes\[0\]\.fresh:/),
        expect.stringMatching(/^nodes\[1\]\.scene:/),
      ]),
    );
    expect(bad).toHaveLength(8);
  });
});

describe('split_cluster', () => {
  const nodes = [
    { id: '1', scene: '2026-11-02 — the kitchen — baked bread with Mia' },
    { id: '2', scene: '2026-11-03 — the office — a deadline moved' },
    { id: '3', scene: '2026-11-04 — the kitchen — burnt the rolls' },
  ];

  it('asks for named sub-topics of at least 2 scenes, leaving 2 behind, each scene with its id', () => {
    const input = parsed('split_cluster', { cluster: { name: 'Everyday' }, nodes });
    const prompt = renderTaskPrompt('split_cluster', input);
    const [system, user] = prompt.messages;
    expect(system!.content).toContain('coherent sub-topics');
    expect(system!.content).toContain('at most 60 characters');
    expect(system!.content).toContain('Each group holds at least 2 scenes');
    expect(system!.content).toContain('Leave at least 2 scenes in the cluster');
    expect(user!.content).toBe(
      'Cluster: Everyday\n\nScenes:\n' +
        '[1] 2026-11-02 — the kitchen — baked bread with Mia\n' +
        '[2] 2026-11-03 — the office — a deadline moved\n' +
        '[3] 2026-11-04 — the kitchen — burnt the rolls',
    );
    expect(prompt.jsonSchema).toBe(CLUSTER_SPLIT_JSON_SCHEMA);
    expect(prompt.schemaName).toBe('cluster_split');
  });

  it('refuses fewer than 3 nodes, more than its bound, and repeated ids', () => {
    const cluster = { name: 'Everyday' };
    expect(problemsOf('split_cluster', { cluster, nodes: nodes.slice(0, 2) })).toEqual([
      expect.stringMatching(/^nodes:/),
    ]);
    const many = Array.from({ length: SCENE_TASK_LIMITS.splitNodes + 1 }, (_, i) => ({
      id: `${i}`,
      scene: 'x',
    }));
    expect(problemsOf('split_cluster', { cluster, nodes: many })).toEqual([expect.stringMatching(/^nodes:/)]);
    expect(parseTaskInput('split_cluster', { cluster, nodes: many.slice(1) }).ok).toBe(true);
    expect(problemsOf('split_cluster', { cluster, nodes: [...nodes, { id: '2', scene: 'again' }] })).toEqual([
      'nodes[3].id: repeats node 2',
    ]);
  });
});

describe('write_diary', () => {
  const scenes = ['2026-11-02 — the kitchen — baked bread with Mia — (warm)', '2026-11-02 — the park — rain'];

  it('asks for 3–5 first-person lines in the being’s voice, from the day’s scenes, after yesterday’s entry', () => {
    const input = parsed('write_diary', {
      being,
      day: '2026-11-02',
      scenes,
      previous: 'Quiet day.\nRead a lot.',
    });
    const prompt = renderTaskPrompt('write_diary', input);
    const [system, user] = prompt.messages;
    expect(system!.content).toMatch(/^You are Mira, writing your diary at the end of 2026-11-02\./);
    expect(system!.content).toContain('Your personality: Curious, warm and a little shy.');
    expect(system!.content).toContain('Your voice, to write in: Short sentences; dry humour.');
    expect(system!.content).toContain('Write 3 to 5 lines, in the first person');
    expect(system!.content).toContain('at most 2000 characters');
    expect(user!.content).toBe(
      'Day: 2026-11-02\n\n' +
        "Yesterday's entry:\nQuiet day.\nRead a lot.\n\n" +
        "The day's scenes:\n- 2026-11-02 — the kitchen — baked bread with Mia — (warm)\n- 2026-11-02 — the park — rain",
    );
    expect(prompt.jsonSchema).toBeUndefined();
  });

  it('says when the day had no scenes, and leaves out what the being does not have', () => {
    const input = parsed('write_diary', { being: {}, day: '2026-11-02', scenes: [] });
    const [system, user] = renderTaskPrompt('write_diary', input).messages;
    expect(system!.content).toMatch(/^You are an AI being, writing/);
    expect(system!.content).not.toMatch(/Your (personality|voice)/);
    expect(user!.content).toBe("Day: 2026-11-02\n\nThe day's scenes: none.");
  });

  it('refuses a day that is not YYYY-MM-DD, too many scenes, and texts beyond their bounds', () => {
    expect(problemsOf('write_diary', { being, day: '2 Nov 2026', scenes })).toEqual([
      expect.stringMatching(/^day:/),
    ]);
    const many = Array.from({ length: SCENE_TASK_LIMITS.diaryScenes + 1 }, () => 'x');
    expect(problemsOf('write_diary', { being, day: '2026-11-02', scenes: many })).toEqual([
      expect.stringMatching(/^scenes:/),
    ]);
    expect(
      problemsOf('write_diary', {
        being: { voice: 'v'.repeat(SCENE_TASK_LIMITS.voiceChars + 1) },
        day: '2026-11-02',
        scenes: ['', 's'.repeat(SCENE_TASK_LIMITS.sceneChars + 1)],
        previous: 'p'.repeat(SCENE_TASK_LIMITS.diaryChars + 1),
      }),
    ).toEqual([
      expect.stringMatching(/^being\.voice:/),
      expect.stringMatching(/^scenes\[0\]:/),
      expect.stringMatching(/^scenes\[1\]:/),
      expect.stringMatching(/^previous:/),
    ]);
  });
});

describe('write_think_notes', () => {
  it('asks for 3–7 short first-person notes for the next conversation, in the being’s voice, from the day and its diary', () => {
    const input = parsed('write_think_notes', {
      being,
      day: '2026-11-02',
      scenes: ['2026-11-02 — the kitchen — Mia asked for the recipe'],
      diary: 'We baked.\nIt was warm.\nMia laughed.',
    });
    const prompt = renderTaskPrompt('write_think_notes', input);
    const [system, user] = prompt.messages;
    expect(system!.content).toMatch(
      /^You are Mira, getting ready for your next conversation after 2026-11-02\./,
    );
    expect(system!.content).toContain('Your voice, to write in: Short sentences; dry humour.');
    expect(system!.content).toContain('Write 3 to 7 short notes');
    expect(system!.content).toContain('at most 300 characters');
    expect(user!.content).toBe(
      'Day: 2026-11-02\n\n' +
        'Your diary entry:\nWe baked.\nIt was warm.\nMia laughed.\n\n' +
        "The day's scenes:\n- 2026-11-02 — the kitchen — Mia asked for the recipe",
    );
    expect(prompt.jsonSchema).toBe(THINK_NOTES_JSON_SCHEMA);
    expect(prompt.schemaName).toBe('think_notes');
  });

  it('refuses a diary beyond its bound and a day that is no date', () => {
    expect(
      problemsOf('write_think_notes', {
        being,
        day: '2026-13-40',
        scenes: [],
        diary: 'd'.repeat(SCENE_TASK_LIMITS.diaryChars + 1),
      }),
    ).toEqual([expect.stringMatching(/^day:/), expect.stringMatching(/^diary:/)]);
  });
});

describe('repair_scene', () => {
  const text = '{"action": "baked bread with Mia",\n "when": "2026-11-02"}';

  it('asks to rewrite the note as one scene, keeping what it says and inventing nothing, with why it did not parse', () => {
    const input = parsed('repair_scene', {
      text,
      problems: ['actors: Invalid input: expected array,\n received undefined', 'when: expected array'],
    });
    const prompt = renderTaskPrompt('repair_scene', input);
    const [system, user] = prompt.messages;
    expect(system!.content).toMatch(/^You mend a note an AI being wrote for its scene memory/);
    expect(system!.content).toContain('Keep everything the note says');
    expect(system!.content).toContain('add no events, people, places, dates or words of your own');
    expect(user!.content).toBe(
      'Why it is not a scene:\n' +
        '- actors: Invalid input: expected array, received undefined\n' +
        '- when: expected array\n\n' +
        `The note:\n${text}`,
    );
    expect(prompt.jsonSchema).toBe(REPAIRED_SCENE_JSON_SCHEMA);
    expect(prompt.schemaName).toBe('repaired_scene');
    expect(REPAIRED_SCENE_JSON_SCHEMA).toMatchObject({
      required: ['action', 'actors', 'when', 'setting', 'dialogue', 'sensory', 'feeling'],
      additionalProperties: false,
    });
  });

  it('shows the note alone when no problem is given', () => {
    const input = parsed('repair_scene', { text, problems: [] });
    expect(renderTaskPrompt('repair_scene', input).messages[1]!.content).toBe(`The note:\n${text}`);
  });

  it('refuses an empty or too long note and too many or too long problems', () => {
    expect(problemsOf('repair_scene', { text: '  ', problems: [] })).toEqual([
      expect.stringMatching(/^text:/),
    ]);
    expect(
      problemsOf('repair_scene', {
        text: 't'.repeat(SCENE_TASK_LIMITS.repairChars + 1),
        problems: Array.from({ length: SCENE_TASK_LIMITS.repairProblems + 1 }, () => 'p'),
      }),
    ).toEqual([expect.stringMatching(/^text:/), expect.stringMatching(/^problems:/)]);
    expect(
      problemsOf('repair_scene', { text, problems: ['p'.repeat(SCENE_TASK_LIMITS.problemChars + 1)] }),
    ).toEqual([expect.stringMatching(/^problems\[0\]:/)]);
  });
});
