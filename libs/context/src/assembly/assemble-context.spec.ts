import { DEFAULT_LAYER_SHARES, parseLayerShares } from '../budget/layer-shares';
import { tokenCounterFor } from '../tokens/token-counter';
import { assembleContext, ContextBudgetError, type AssemblyOptions } from './assemble-context';
import type { ContextInputs, RecentMessageInput, SceneInput } from './context-inputs';

const NOW = new Date('2026-11-22T09:30:00Z');
const counter = tokenCounterFor('local-model');
const options = (ceilingTokens = 6144, shares = DEFAULT_LAYER_SHARES): AssemblyOptions => ({
  ceilingTokens,
  shares,
  counter,
});

function message(id: number, role: RecentMessageInput['role'], content: string): RecentMessageInput {
  return {
    id: String(id),
    role,
    content,
    toolName: role === 'tool' ? 'web_search' : null,
    createdAt: new Date(NOW.getTime() - (100 - id) * 60_000),
  };
}

function inputs(overrides: Partial<ContextInputs> = {}): ContextInputs {
  return {
    asOf: NOW,
    currentMessage: 'Can you deploy the billing service today?',
    agent: {
      agent: 'ops',
      name: 'Ada',
      personality: 'Calm and precise.',
      job: 'Run deployments for the platform team.',
      userName: 'Sam',
      tools: ['shell', 'calendar'],
      sceneMemory: false,
    },
    workspace: [
      { name: 'USER.md', kind: 'user', day: null, content: 'Sam leads the platform team.' },
      { name: 'SOUL.md', kind: 'soul', day: null, content: 'Be candid. Prefer small steps.' },
      {
        name: 'memory/2026-11-22.md',
        kind: 'daily',
        day: '2026-11-22',
        content: 'Billing freeze lifted at 09:00.',
      },
      { name: 'memory/2026-11-21.md', kind: 'daily', day: '2026-11-21', content: 'Billing freeze in place.' },
    ],
    stickyFacts: [
      { id: '7', content: 'Sam is allergic to peanuts.', importance: 6, validFrom: new Date('2026-01-01') },
      { id: '3', content: 'Deploys need a change ticket.', importance: 9, validFrom: new Date('2026-02-01') },
    ],
    memory: [
      {
        ref: 'message:10',
        content: 'Billing runs on the blue cluster.',
        createdAt: new Date('2026-10-01T10:00:00Z'),
      },
      { ref: 'message:99', content: 'Sure, what should I deploy?', createdAt: NOW },
      { ref: 'fact:3', content: 'Deploys need a change ticket.', createdAt: null },
    ],
    recentFacts: [],
    skills: [
      {
        name: 'deploy',
        description: 'how we ship',
        keywords: ['deploy'],
        patterns: ['billing\\s+service'],
        body: 'Run `make ship`, then watch the dashboard.',
      },
      { name: 'cooking', description: null, keywords: ['recipe'], patterns: [], body: 'Use butter.' },
    ],
    recent: [message(98, 'user', 'hello'), message(99, 'assistant', 'Sure, what should I deploy?')],
    compaction: null,
    scene: null,
    ...overrides,
  };
}

const layersOf = (blocks: ReadonlyArray<{ layer: string }>) => [...new Set(blocks.map((b) => b.layer))];

describe('assembleContext', () => {
  it('builds every layer in order, each with its sources', () => {
    const result = assembleContext(
      inputs({
        compaction: {
          id: '4',
          content: 'They set up the billing pipeline.',
          earliestAt: new Date('2026-11-01T08:00:00Z'),
          latestAt: new Date('2026-11-20T17:45:00Z'),
        },
      }),
      options(),
    );
    expect(layersOf(result.blocks)).toEqual([
      'identity',
      'workspace',
      'tools',
      'sticky_facts',
      'memory',
      'skills',
      'compaction',
      'recent',
    ]);
    const text = (layer: string) =>
      result.blocks
        .filter((b) => b.layer === layer)
        .map((b) => b.text)
        .join('\n');
    expect(text('identity')).toBe(
      "You are Ada. Calm and precise.\nYour job: Run deployments for the platform team.\nToday is Sunday, 22 November 2026 (2026-11-22).\nThe user's name is Sam.",
    );
    // SOUL before USER, and only today's daily note.
    expect(text('workspace')).toMatch(
      /^## SOUL\.md\nBe candid[\s\S]*## USER\.md[\s\S]*## memory\/2026-11-22\.md\nBilling freeze lifted/,
    );
    expect(text('workspace')).not.toContain('freeze in place');
    expect(text('tools')).toBe('Tools you can use:\n- calendar\n- shell');
    // Most important sticky fact first.
    expect(text('sticky_facts')).toBe(
      'Always keep in mind:\n[STICKY] Deploys need a change ticket.\n[STICKY] Sam is allergic to peanuts.',
    );
    expect(text('memory')).toBe(
      'Relevant memory from earlier conversations:\n[MEMORY] [2026-10-01] Billing runs on the blue cluster.',
    );
    expect(text('skills')).toContain('### Skill: deploy (how we ship)\nRun `make ship`');
    expect(text('skills')).not.toContain('cooking');
    expect(text('compaction')).toBe(
      'Previous conversation summary (2026-11-01T08:00Z – 2026-11-20T17:45Z):\nThey set up the billing pipeline.',
    );
    expect(result.blocks.filter((b) => b.layer === 'recent').map((b) => [b.role, b.text])).toEqual([
      ['user', 'hello'],
      ['assistant', 'Sure, what should I deploy?'],
    ]);
    expect(result.blocks.find((b) => b.layer === 'skills')!.sourceIds).toEqual(['skill:deploy']);
    expect(result.blocks.find((b) => b.layer === 'compaction')!.sourceIds).toEqual(['compaction:4']);
    // A hit already in the prompt is not repeated, and the response says so.
    expect(result.cut).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          layer: 'memory',
          reason: 'already in the recent conversation',
          sourceIds: ['message:99'],
        }),
        expect.objectContaining({
          layer: 'memory',
          reason: 'already in the sticky facts',
          sourceIds: ['fact:3'],
        }),
      ]),
    );
    expect(result.totalTokens).toBe(result.blocks.reduce((s, b) => s + counter.count(b.text), 0));
  });

  it("fills layer 4 with the hits first, then the agent's other facts newest first, to its share", () => {
    const fact = (id: number, day: number, content: string) => ({
      id: String(id),
      content,
      validFrom: new Date(Date.UTC(2026, 10, day)),
    });
    const result = assembleContext(
      inputs({
        memory: [{ ref: 'fact:21', content: 'The blue cluster hosts billing.', createdAt: null }],
        recentFacts: [
          fact(22, 20, 'Sam prefers Python 3.12.'),
          fact(21, 19, 'The blue cluster hosts billing.'),
          fact(20, 18, 'The current project is arvis-v3.'),
          ...Array.from({ length: 400 }, (_, i) =>
            fact(1000 + i, 1, `Old detail number ${i} of the backlog.`),
          ),
        ],
      }),
      options(32_000),
    );
    const memory = result.blocks.find((b) => b.layer === 'memory')!;
    expect(memory.text.split('\n').slice(0, 4)).toEqual([
      'Relevant memory from earlier conversations:',
      '[MEMORY] The blue cluster hosts billing.',
      '[MEMORY] [2026-11-20] Sam prefers Python 3.12.',
      '[MEMORY] [2026-11-18] The current project is arvis-v3.',
    ]);
    expect(memory.sourceIds.slice(0, 3)).toEqual(['fact:21', 'fact:22', 'fact:20']);
    // The share (4,000 tokens by default) is filled (items are counted one by one, the block
    // as a whole merges a little), and what did not fit is said.
    expect(memory.tokens).toBeLessThanOrEqual(DEFAULT_LAYER_SHARES.memory);
    expect(memory.tokens).toBeGreaterThan(DEFAULT_LAYER_SHARES.memory * 0.9);
    expect(result.cut.some((c) => c.layer === 'memory' && c.sourceIds[0]!.startsWith('fact:1'))).toBe(true);
  });

  it('is deterministic for the same inputs', () => {
    expect(assembleContext(inputs(), options())).toEqual(assembleContext(inputs(), options()));
  });

  it('never exceeds the ceiling, counting the current message', () => {
    const long = (n: number) => `word${n} `.repeat(400);
    const big = inputs({
      stickyFacts: Array.from({ length: 300 }, (_, i) => ({
        id: String(i + 1),
        content: `Sticky fact number ${i} ${'detail '.repeat(20)}`,
        importance: (i % 10) + 1,
        validFrom: NOW,
      })),
      memory: Array.from({ length: 100 }, (_, i) => ({
        ref: `message:${1000 + i}`,
        content: long(i),
        createdAt: NOW,
      })),
      recent: Array.from({ length: 60 }, (_, i) => message(i + 1, i % 2 ? 'assistant' : 'user', long(i))),
      workspace: [{ name: 'MEMORY.md', kind: 'memory', day: null, content: long(1).repeat(20) }],
    });
    for (const ceiling of [300, 1000, 6144, 96_000]) {
      const result = assembleContext(big, options(ceiling));
      expect(result.totalTokens + result.currentMessageTokens).toBeLessThanOrEqual(ceiling);
      expect(result.cut.length).toBeGreaterThan(0);
    }
  });

  it('keeps the most important sticky facts when there are too many, and says what it cut', () => {
    const many = Array.from({ length: 200 }, (_, i) => ({
      id: String(i + 1),
      content: `Sticky fact ${i + 1}: ${'x'.repeat(80)}`,
      importance: i < 5 ? 10 : 2,
      validFrom: NOW,
    }));
    const result = assembleContext(inputs({ stickyFacts: many }), options());
    const sticky = result.blocks.find((b) => b.layer === 'sticky_facts')!;
    expect(sticky.tokens).toBeLessThanOrEqual(Math.floor(0.08 * 6144));
    expect(sticky.sourceIds.slice(0, 5)).toEqual(['fact:1', 'fact:2', 'fact:3', 'fact:4', 'fact:5']);
    const cut = result.cut.filter((c) => c.layer === 'sticky_facts');
    expect(cut.length).toBe(200 - sticky.sourceIds.length);
    expect(cut[0]!.reason).toBe('the sticky_facts share of 491 tokens is full');
  });

  it('works with an empty memory: no profile text beyond the name, no documents, no history', () => {
    const result = assembleContext(
      inputs({
        agent: {
          agent: 'fresh',
          name: null,
          personality: null,
          job: null,
          userName: null,
          tools: [],
          sceneMemory: false,
        },
        workspace: [],
        stickyFacts: [],
        memory: [],
        skills: [],
        recent: [],
      }),
      options(),
    );
    expect(result.blocks.map((b) => b.layer)).toEqual(['identity']);
    expect(result.blocks[0]!.text).toBe('You are fresh.\nToday is Sunday, 22 November 2026 (2026-11-22).');
    expect(result.cut).toEqual([]);
  });

  it('truncates one enormous newest message instead of dropping it, and stops the conversation there', () => {
    const huge = `START ${'lorem ipsum '.repeat(20_000)} END`;
    const result = assembleContext(
      inputs({ recent: [message(1, 'user', 'older question'), message(2, 'assistant', huge)] }),
      options(),
    );
    const recent = result.blocks.filter((b) => b.layer === 'recent');
    expect(recent).toHaveLength(1);
    expect(recent[0]!.text).toMatch(/^START[\s\S]*truncated: \d+ of \d+ tokens kept[\s\S]*END$/);
    expect(result.cut).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          layer: 'recent',
          sourceIds: ['message:2'],
          reason: expect.stringMatching(/^truncated/),
        }),
        expect.objectContaining({ layer: 'recent', sourceIds: ['message:1'] }),
      ]),
    );
    expect(result.totalTokens + result.currentMessageTokens).toBeLessThanOrEqual(6144);
  });

  it('does not repeat the current message when the runtime already stored it', () => {
    const result = assembleContext(
      inputs({
        recent: [
          message(1, 'assistant', 'hi'),
          message(2, 'user', 'Can you deploy the billing service today?'),
        ],
      }),
      options(),
    );
    expect(result.blocks.filter((b) => b.layer === 'recent').map((b) => b.text)).toEqual(['hi']);
  });

  it('gives a budget that only holds the identity nothing else, and refuses a budget below it', () => {
    const full = assembleContext(inputs(), options());
    const required = full.blocks[0]!.tokens + full.currentMessageTokens;
    const identityOnly = assembleContext(inputs(), options(required));
    expect(identityOnly.blocks.map((b) => b.layer)).toEqual(['identity']);
    expect(identityOnly.cut.map((c) => c.layer)).toEqual(
      expect.arrayContaining(['workspace', 'sticky_facts', 'recent']),
    );
    expect(() => assembleContext(inputs(), options(required - 1))).toThrow(ContextBudgetError);
    expect(() => assembleContext(inputs(), options(required - 1))).toThrow(
      `a budget of ${required - 1} tokens cannot hold the identity and the current message (${required} tokens)`,
    );
  });

  it('gives what other layers leave to the recent conversation', () => {
    const recent = Array.from({ length: 40 }, (_, i) =>
      message(i + 1, i % 2 ? 'assistant' : 'user', `turn ${i + 1} ${'chat '.repeat(60)}`),
    );
    const result = assembleContext(
      inputs({ recent, memory: [] }),
      options(6144, parseLayerShares('recent=0.1')),
    );
    const recentTokens = result.blocks.filter((b) => b.layer === 'recent').reduce((s, b) => s + b.tokens, 0);
    // Its own share is 614 tokens; what the other layers did not use extends it.
    expect(recentTokens).toBeGreaterThan(614);
    expect(result.blocks.filter((b) => b.layer === 'recent').at(-1)!.text).toMatch(/^turn 40 /);
  });

  it('hashes the stable prefix: the same when only the conversation changes, not when the workspace does', () => {
    const a = assembleContext(inputs(), options());
    const b = assembleContext(
      inputs({
        recent: [message(50, 'user', 'another thread')],
        currentMessage: 'something else',
        memory: [],
      }),
      options(),
    );
    expect(b.prefixHash).toBe(a.prefixHash);
    const c = assembleContext(
      inputs({ workspace: [{ name: 'SOUL.md', kind: 'soul', day: null, content: 'Be terse.' }] }),
      options(),
    );
    expect(c.prefixHash).not.toBe(a.prefixHash);
    expect(a.prefixHash).toMatch(/^[0-9a-f]{64}$/);
  });

  describe('scene-memory agents', () => {
    const scene: SceneInput = {
      soul: null,
      thinkNotes: [{ id: '1', content: 'Sam prefers morning deploys.' }],
      partnerRules: [{ id: '2', rule: 'Never deploy on Fridays.' }],
      preferences: [{ key: 'tea', value: 'green, no sugar' }],
      relationships: [
        { person: 'Kim', relation: "Sam's manager", notes: 'Wants weekly updates.' },
        { person: 'Mia', relation: '', notes: '' },
      ],
      clusters: [
        { id: '10', name: 'Business', root: 'business', parentId: '10', activeNodes: 2 },
        { id: '11', name: 'Private', root: 'private', parentId: '11', activeNodes: 1 },
        { id: '12', name: 'Deploys', root: null, parentId: '10', activeNodes: 3 },
      ],
      unreadNotes: [
        { id: '5', kind: 'note', content: 'Kim asked for a status update.', dueAt: null },
        { id: '6', kind: 'todo', content: 'Renew the TLS certificate.', dueAt: null },
        {
          id: '7',
          kind: 'reminder',
          content: 'Change freeze starts.',
          dueAt: new Date('2026-11-24T17:00:00Z'),
        },
      ],
      knowledge: [{ id: '8', kind: 'knowledge', content: 'The blue cluster runs Postgres 15.', dueAt: null }],
      diary: [
        { day: '2026-11-01', content: 'Old entry.' },
        { day: '2026-11-16', content: 'Planned the week.' },
        { day: '2026-11-20', content: 'Shipped search.' },
      ],
      nodes: Array.from({ length: 7 }, (_, i) => ({
        id: String(20 + i),
        scene: { action: `what happened ${i}`, actors: ['Sam'], when: ['2026-11-2' + (i % 3)] },
        feeling: i === 0 ? 'relieved' : null,
      })),
    };
    const sceneAgent = (overrides: Partial<ContextInputs> = {}) =>
      inputs({ agent: { ...inputs().agent, sceneMemory: true }, scene, ...overrides });
    const textOf = (result: ReturnType<typeof assembleContext>, layer: string) =>
      result.blocks
        .filter((b) => b.layer === layer)
        .map((b) => b.text)
        .join('\n');

    it('adds the persona prefix, the snapshot pair and the five latest scenes', () => {
      const result = assembleContext(sceneAgent(), options());
      expect(layersOf(result.blocks)).toEqual([
        'identity',
        'persona',
        'workspace',
        'sticky_facts',
        'memory',
        'skills',
        'scenes',
        'snapshot',
        'recent',
      ]);
      expect(textOf(result, 'persona')).toBe(
        [
          '## Soul\nBe candid. Prefer small steps.',
          '## Think notes\n- Sam prefers morning deploys.',
          '## Partner rules\n- Never deploy on Fridays.',
          '## User preferences\n- tea: green, no sugar',
          "## Relationships\n- Kim — Sam's manager — Wants weekly updates.\n- Mia",
          '## Tools\n- calendar\n- shell',
          '## Map\nBusiness (5): Deploys (3)\nPrivate (1)',
        ].join('\n\n'),
      );
      expect(result.blocks.find((b) => b.layer === 'persona')!.sourceIds).toEqual([
        'workspace:SOUL.md',
        'think:1',
        'rule:2',
        'preference:tea',
        'relationship:Kim',
        'relationship:Mia',
        'tool:calendar',
        'tool:shell',
        'cluster:10',
        'cluster:12',
        'cluster:11',
      ]);
      // The soul and the tools live in the persona block, not twice.
      expect(textOf(result, 'workspace')).not.toContain('SOUL.md');
      expect(result.blocks.some((b) => b.layer === 'tools')).toBe(false);
      const snapshot = result.blocks.filter((b) => b.layer === 'snapshot');
      expect(snapshot.map((b) => b.role)).toEqual(['user', 'assistant']);
      expect(snapshot[0]!.text).toBe(
        [
          'Snapshot of my memory:',
          '## Unread notes\n- Kim asked for a status update.\n- TODO: Renew the TLS certificate.\n- Reminder (due 2026-11-24T17:00Z): Change freeze starts.',
          '## Knowledge\n- The blue cluster runs Postgres 15.',
          '## Diary, last 7 days\n- 2026-11-16: Planned the week.\n- 2026-11-20: Shipped search.',
        ].join('\n\n'),
      );
      expect(snapshot[0]!.sourceIds).toEqual([
        'note:5',
        'note:6',
        'note:7',
        'note:8',
        'diary:2026-11-16',
        'diary:2026-11-20',
      ]);
      const scenes = result.blocks.find((b) => b.layer === 'scenes')!;
      expect(scenes.sourceIds).toEqual(['scene:20', 'scene:21', 'scene:22', 'scene:23', 'scene:24']);
      expect(scenes.text.split('\n').slice(0, 3)).toEqual([
        'Recently active scenes:',
        '- 2026-11-20 — what happened 0 — (relieved)',
        '- 2026-11-21 — what happened 1',
      ]);
    });

    it('puts what the current message recalled at the head of the scenes block (2-B)', () => {
      const result = assembleContext(
        sceneAgent({ recalled: { text: '<memory>relieved / what happened 5</memory>', nodeIds: ['25'] } }),
        options(),
      );
      const scenes = result.blocks.find((b) => b.layer === 'scenes')!;
      expect(scenes.text.split('\n').slice(0, 3)).toEqual([
        'Recently active scenes:',
        '- Recalled just now: <memory>relieved / what happened 5</memory>',
        '- 2026-11-20 — what happened 0 — (relieved)',
      ]);
      expect(scenes.sourceIds.slice(0, 2)).toEqual(['scene:25', 'scene:20']);
      // An agent without scene memory recalls nothing, whatever it is given.
      expect(
        textOf(
          assembleContext(inputs({ recalled: { text: '<memory>x</memory>', nodeIds: [] } }), options()),
          'scenes',
        ),
      ).toBe('');
    });

    it('shows the soul row instead of SOUL.md when the being has one', () => {
      const result = assembleContext(
        sceneAgent({
          scene: {
            ...scene,
            soul: {
              personality: 'Warm, curious.',
              voice: 'Short sentences.',
              values: ['honesty', ' ', 'care'],
              backstory: '',
              innerWorld: 'Likes quiet mornings.',
              examples: ['Morning! Coffee first?'],
            },
          },
        }),
        options(),
      );
      expect(textOf(result, 'persona')).toMatch(
        /^## Soul\nPersonality: Warm, curious\.\nVoice: Short sentences\.\nValues:\n- honesty\n- care\nInner world: Likes quiet mornings\.\nExamples of my voice:\n- Morning! Coffee first\?\n\n## Think notes/,
      );
      expect(textOf(result, 'persona')).not.toContain('Be candid');
      expect(result.blocks.find((b) => b.layer === 'persona')!.sourceIds[0]).toBe('soul:ops');
      expect(textOf(result, 'workspace')).not.toContain('SOUL.md');
    });

    it('falls back to SOUL.md when the soul row is empty, and shows no soul without either', () => {
      const empty = { personality: ' ', voice: '', values: [], backstory: '', innerWorld: '', examples: [] };
      const result = assembleContext(sceneAgent({ scene: { ...scene, soul: empty } }), options());
      expect(textOf(result, 'persona')).toMatch(/^## Soul\nBe candid/);
      const bare = assembleContext(
        sceneAgent({ workspace: [], scene: { ...scene, soul: null, thinkNotes: [] } }),
        options(),
      );
      expect(textOf(bare, 'persona')).toMatch(/^## Partner rules\n/);
    });

    it('leaves the snapshot out when there is nothing unread, no knowledge and no recent diary', () => {
      const result = assembleContext(
        sceneAgent({
          scene: {
            ...scene,
            unreadNotes: [],
            knowledge: [],
            diary: [{ day: '2026-11-01', content: 'Old.' }],
          },
        }),
        options(),
      );
      expect(result.blocks.some((b) => b.layer === 'snapshot')).toBe(false);
    });

    it('keeps the prefix hash when the conversation, the snapshot or the scenes change, not when the persona does', () => {
      const a = assembleContext(sceneAgent(), options());
      const b = assembleContext(
        sceneAgent({
          recent: [],
          currentMessage: 'new topic',
          scene: { ...scene, unreadNotes: [], knowledge: [], diary: [], nodes: [] },
        }),
        options(),
      );
      expect(b.prefixHash).toBe(a.prefixHash);
      // Later the same day.
      const c = assembleContext(sceneAgent({ asOf: new Date('2026-11-22T21:45:00Z') }), options());
      expect(c.prefixHash).toBe(a.prefixHash);
      for (const changed of [
        { partnerRules: [] },
        { thinkNotes: [{ id: '9', content: 'A new thought.' }] },
        { clusters: scene.clusters.map((c) => ({ ...c, activeNodes: c.activeNodes + 1 })) },
      ]) {
        const d = assembleContext(sceneAgent({ scene: { ...scene, ...changed } }), options());
        expect(d.prefixHash).not.toBe(a.prefixHash);
      }
    });

    it('gives an agent without scene memory none of it, even when the store holds some', () => {
      const result = assembleContext(inputs({ scene }), options());
      expect(layersOf(result.blocks)).not.toEqual(expect.arrayContaining(['persona']));
      expect(result.blocks.some((b) => ['persona', 'snapshot', 'scenes'].includes(b.layer))).toBe(false);
    });
  });

  it('counts exactly with a known tokenizer', () => {
    const exact = tokenCounterFor('gpt-4o');
    const result = assembleContext(inputs(), {
      ceilingTokens: 96_000,
      shares: DEFAULT_LAYER_SHARES,
      counter: exact,
    });
    for (const block of result.blocks) expect(block.tokens).toBe(exact.count(block.text));
  });
});
