import { SeededRandom } from '../corpus/seeded-random';
import { mixSeed, sampleDistinct } from '../search/corpus-shape';

/** Where the workspace's topic words come from: the corpus's own words (ZipfText), so messages mention them. */
export interface WordSource {
  word(random: SeededRandom): string;
  isContentWord(word: string): boolean;
}

/** What one agent is given before the benchmark asks for its prompts (the bodies of agent.put, workspace.put, skill.put). */
export interface AgentWorkspace {
  readonly tenantId: string;
  readonly agent: string;
  readonly profile: {
    readonly agent: string;
    readonly name: string;
    readonly personality: string;
    readonly job: string;
    readonly userName: string;
    readonly tools: string[];
  };
  readonly documents: Array<{ name: string; content: string }>;
  readonly skills: Array<{ name: string; markdown: string }>;
}

/** The workspace files every agent gets, and the daily note of `day`. */
export const WORKSPACE_FILES = ['SOUL.md', 'USER.md', 'AGENTS.md', 'MEMORY.md'] as const;
export const SKILLS_PER_AGENT = { min: 2, max: 3 } as const;
export const SKILL_KEYWORDS = { min: 2, max: 4 } as const;

const NAMES = [
  'Ada',
  'Basil',
  'Cleo',
  'Dorian',
  'Edie',
  'Felix',
  'Greta',
  'Hugo',
  'Iris',
  'Jonas',
  'Kira',
  'Leon',
  'Mina',
  'Nico',
  'Opal',
  'Piet',
];
const PERSONALITIES = [
  'Calm and precise; says when it is unsure.',
  'Warm, brief and practical; prefers examples to theory.',
  'Curious and thorough; checks before it answers.',
  'Direct and dryly funny; never pads an answer.',
];
const JOBS: Record<string, string> = {
  assistant: 'General assistant for the team: questions, drafts, reminders.',
  support: 'First-line customer support: triage tickets, answer from the docs, escalate what it cannot fix.',
  coder: 'Pair programmer: reviews changes, writes tests, explains failures.',
  planner: 'Keeps the roadmap, the sprint plan and the calendar straight.',
  researcher: 'Finds, reads and summarises sources; keeps the notes of each study.',
  ops: 'Runs deployments and on-call for the platform team.',
  sales: 'Prepares calls, follows up on leads and keeps the pipeline tidy.',
  tutor: 'Teaches at the learner’s pace, with exercises and feedback.',
  concierge: 'Books travel, venues and appointments; knows everyone’s preferences.',
  analyst: 'Answers questions from the data: queries, charts and caveats.',
};
const TOOLS = ['web_search', 'calendar', 'shell', 'email', 'tickets', 'sql', 'files', 'browser'];
const SKILL_VERBS = [
  'triage',
  'deploy',
  'review',
  'summarise',
  'schedule',
  'escalate',
  'estimate',
  'onboard',
  'report',
  'audit',
];

/** `n` distinct content words. */
function contentWords(random: SeededRandom, words: WordSource, n: number): string[] {
  const out: string[] = [];
  for (let tries = 0; out.length < n && tries < 100 * n; tries++) {
    const w = words.word(random);
    if (w.length >= 3 && words.isContentWord(w) && !out.includes(w)) out.push(w);
  }
  return out;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Paragraphs of `sentences` sentences from `templates`, each filled with topic words. */
function prose(
  random: SeededRandom,
  words: WordSource,
  templates: ReadonlyArray<(w: string[]) => string>,
  sentences: number,
): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) {
    out.push(random.pick(templates)(contentWords(random, words, 3)));
    if (i % 5 === 4) out.push('\n\n');
  }
  return out
    .join(' ')
    .replace(/ \n\n /g, '\n\n')
    .trim();
}

/**
 * A realistic workspace for one agent of the corpus: a profile, SOUL.md, USER.md, AGENTS.md and
 * MEMORY.md of a few hundred words each, today's daily note, and 2–3 skills whose keywords are
 * frequent words of the corpus (so some current messages trigger them). Deterministic per
 * (seed, tenant, agent).
 */
export function agentWorkspace(
  tenant: { readonly id: string; readonly people: readonly string[] },
  agent: string,
  day: string,
  words: WordSource,
  seed: number,
): AgentWorkspace {
  const random = new SeededRandom(mixSeed(seed, ...[...`${tenant.id}/${agent}`].map((c) => c.charCodeAt(0))));
  const name = random.pick(NAMES);
  const user = capital(tenant.people[0] ?? 'sam');
  const job = JOBS[agent] ?? `The team's ${agent}.`;
  const tools = TOOLS.filter(() => random.chance(0.4));

  const soul = prose(
    random,
    words,
    [
      (w) => `Be candid about ${w[0]} and ${w[1]}; say so when something is not known.`,
      (w) => `Prefer small, reversible steps when ${w[0]} is involved.`,
      (w) => `When ${user} asks about ${w[0]}, answer first, then explain ${w[1]} if it helps.`,
      (w) => `Never guess at ${w[0]}: look it up, or ask.`,
      (w) => `Keep answers short unless ${w[0]} or ${w[1]} needs the detail.`,
      (w) => `Disagree openly, kindly and with reasons, especially about ${w[0]}.`,
    ],
    28,
  );
  const userDoc = prose(
    random,
    words,
    [
      (w) => `${user} works on ${w[0]} and ${w[1]}, mostly in the mornings.`,
      (w) => `${user} prefers ${w[0]} over ${w[1]} and dislikes long meetings about ${w[2]}.`,
      (w) =>
        `${user}'s team owns ${w[0]}; questions about ${w[1]} go to ${capital(random.pick(tenant.people) ?? 'the lead')}.`,
      (w) => `${user} asked to be reminded about ${w[0]} every week.`,
      (w) => `${user} is learning ${w[0]} and likes worked examples with ${w[1]}.`,
    ],
    24,
  );
  const agentsDoc = [
    `# ${name} — ${job}`,
    '',
    prose(
      random,
      words,
      [
        (w) => `Before touching ${w[0]}, read the notes on ${w[1]} in MEMORY.md.`,
        (w) => `Log every change to ${w[0]} in the daily note, with why.`,
        (w) => `Hand ${w[0]} questions to the ${random.pick(Object.keys(JOBS))} agent.`,
        (w) => `Use the ${random.pick(TOOLS)} tool for ${w[0]}; never for ${w[1]}.`,
        (w) => `Escalate ${w[0]} incidents to ${user} at once.`,
      ],
      26,
    ),
  ].join('\n');
  const memoryDoc = Array.from({ length: 26 }, () => {
    const w = contentWords(random, words, 3);
    return random.pick([
      `- ${user} decided to move ${w[0]} to ${w[1]} next quarter.`,
      `- The ${w[0]} review found problems with ${w[1]} and ${w[2]}.`,
      `- ${capital(random.pick(tenant.people) ?? 'someone')} owns ${w[0]} since the spring.`,
      `- Do not mention ${w[0]} to ${w[1]} customers until it ships.`,
      `- ${capital(w[0]!)} costs went up after ${w[1]} changed.`,
    ]);
  }).join('\n');
  const daily = Array.from({ length: 8 }, () => {
    const w = contentWords(random, words, 2);
    return `- ${String(random.int(8, 18)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')} ${capital(w[0]!)}: ${random.pick(['done', 'blocked on', 'waiting for', 'asked about'])} ${w[1]}.`;
  }).join('\n');

  const skills = sampleDistinct(
    random,
    SKILL_VERBS,
    random.int(SKILLS_PER_AGENT.min, SKILLS_PER_AGENT.max),
  ).map((verb) => {
    const keywords = contentWords(random, words, random.int(SKILL_KEYWORDS.min, SKILL_KEYWORDS.max));
    const steps = Array.from({ length: random.int(4, 7) }, (_, i) => {
      const w = contentWords(random, words, 2);
      return `${i + 1}. ${capital(random.pick(['check', 'write down', 'compare', 'confirm', 'update']))} ${w[0]} against ${w[1]}.`;
    });
    const markdown = [
      '---',
      `name: ${JSON.stringify(`${verb}-${keywords[0]}`)}`,
      `description: ${JSON.stringify(`how ${name} handles ${verb} requests about ${keywords.join(', ')}`)}`,
      'triggers:',
      `  keywords: [${keywords.map((k) => JSON.stringify(k)).join(', ')}]`,
      '---',
      `When asked to ${verb} anything about ${keywords.join(' or ')}:`,
      '',
      ...steps,
      '',
      `Tell ${user} what changed and what is still open.`,
      '',
    ].join('\n');
    return { name: `${verb}.md`, markdown };
  });

  return {
    tenantId: tenant.id,
    agent,
    profile: { agent, name, personality: random.pick(PERSONALITIES), job, userName: user, tools },
    documents: [
      { name: 'SOUL.md', content: `# Soul\n\n${soul}\n` },
      { name: 'USER.md', content: `# ${user}\n\n${userDoc}\n` },
      { name: 'AGENTS.md', content: `${agentsDoc}\n` },
      { name: 'MEMORY.md', content: `# Memory\n\n${memoryDoc}\n` },
      { name: `memory/${day}.md`, content: `# ${day}\n\n${daily}\n` },
    ],
    skills,
  };
}
