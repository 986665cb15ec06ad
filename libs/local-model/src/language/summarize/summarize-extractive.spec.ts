import { renderPreamble } from '../attribution';
import {
  extractiveSummary,
  summarizeExtractive,
  type ExtractiveSummaryInput,
  type SummaryInputLine,
} from './summarize-extractive';

const start = Date.parse('2026-04-18T12:00:00Z');

function input(messages: [role: string, text: string][], author = 'opus'): ExtractiveSummaryInput {
  const lines: SummaryInputLine[] = messages.map(([role, text], i) => ({
    ordinal: i + 1,
    at: new Date(start + i * 4 * 60_000),
    author,
    role,
    text,
    id: `m${i + 1}`,
  }));
  return {
    preamble: {
      conversationId: 'c-42',
      agent: 'opus',
      channel: 'telegram',
      title: 'Deploy review',
      from: lines[0]?.at ?? new Date(start),
      to: lines[lines.length - 1]?.at ?? new Date(start),
      messageCount: lines.length,
    },
    lines,
  };
}

const deployReview = input([
  ['user', 'Hi! Thanks for joining.'],
  ['user', 'The deploy of v2.3.1 failed last night because the database migration timed out after 300 s.'],
  [
    'assistant',
    'I looked at the logs. The migration 1760000000001-embedding-work.ts locks the messages table while it builds the HNSW index.',
  ],
  ['user', 'Ok.'],
  [
    'assistant',
    'The deploy failed because the database migration timed out. I suggest building the index CONCURRENTLY in a separate migration.',
  ],
  ['user', 'Sounds good. Can you open a PR for that?'],
  ['tool', '{"number": 482, "url": "https://github.com/engram/engram/pull/482", "state": "open"}'],
  [
    'assistant',
    'Opened PR #482 (commit 9f3c2ab1) which moves the index build to libs/store/src/migrations/1760000000002-hnsw-concurrently.ts.',
  ],
  ['system', 'Conversation compacted at 2026-04-18T12:30Z.'],
  ['user', 'Great. Also, please remember that staging uses pgvector 0.8.0 and max_connections is 200.'],
  ['assistant', 'Noted: staging runs pgvector 0.8.0 with max_connections = 200.'],
  ['user', 'Thanks!'],
]);

const PREFIX = /^\[#(\d{2}) (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z) ([^/\]]+)\/(\w+)\] (.+)$/;

describe('summarizeExtractive', () => {
  it('starts with the preamble header and attributes every kept line', () => {
    const summary = summarizeExtractive(deployReview, { maxChars: 900 });
    const [header, ...body] = summary.split('\n');
    expect(header).toBe(renderPreamble(deployReview.preamble));
    expect(body.length).toBeGreaterThan(2);
    for (const line of body) {
      const match = PREFIX.exec(line);
      expect(match).not.toBeNull();
      const source = deployReview.lines[Number(match![1]) - 1];
      expect(match![2]).toBe(source.at.toISOString().slice(0, 16) + 'Z');
      expect(match![3]).toBe('opus');
      expect(match![4]).toBe(source.role);
    }
  });

  it('keeps identifiers verbatim: PR numbers, hashes, paths, versions, figures', () => {
    const summary = summarizeExtractive(deployReview, { maxChars: 900 });
    for (const identifier of [
      'PR #482',
      '9f3c2ab1',
      'libs/store/src/migrations/1760000000002-hnsw-concurrently.ts',
      'pgvector 0.8.0',
      'max_connections is 200',
      'v2.3.1',
      '300 s',
    ]) {
      expect(summary).toContain(identifier);
    }
  });

  it('never alters a kept sentence: every pick is an exact slice of its message', () => {
    const { picks } = extractiveSummary(deployReview, { maxChars: 3000 });
    expect(picks.length).toBeGreaterThan(3);
    for (const pick of picks) expect(deployReview.lines[pick.line].text).toContain(pick.text);
  });

  it('respects the character budget at every size', () => {
    for (let maxChars = 0; maxChars <= 1500; maxChars += 37) {
      expect(summarizeExtractive(deployReview, { maxChars }).length).toBeLessThanOrEqual(maxChars);
    }
  });

  it('cuts the header itself when even it does not fit', () => {
    const summary = summarizeExtractive(deployReview, { maxChars: 40 });
    expect(summary).toHaveLength(40);
    expect(summary.endsWith('…')).toBe(true);
  });

  it('keeps sentences in their original order', () => {
    const { picks, text } = extractiveSummary(deployReview, { maxChars: 3000 });
    const order = picks.map((pick) => pick.line * 1000 + pick.sentence);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const ordinals = text
      .split('\n')
      .slice(1)
      .map((line) => Number(PREFIX.exec(line)![1]));
    expect(ordinals).toEqual([...ordinals].sort((a, b) => a - b));
  });

  it('does not keep both of two near-duplicates, even with room to spare', () => {
    const summary = summarizeExtractive(deployReview, { maxChars: 5000 });
    // #05 repeats #02 without its figures; #11 repeats #10.
    expect(summary).toContain('The deploy of v2.3.1 failed');
    expect(summary).not.toContain('The deploy failed because the database migration timed out.');
    expect(summary.includes('staging uses pgvector') && summary.includes('staging runs pgvector')).toBe(
      false,
    );
  });

  it('drops acknowledgements and greetings that carry no content', () => {
    const summary = summarizeExtractive(deployReview, { maxChars: 5000 });
    expect(summary).not.toMatch(/\] (Ok\.|Thanks!|Great\.)/);
    expect(summary).not.toContain('Sounds good.');
  });

  it('prefers the sentence with identifiers when only one fits', () => {
    const plain = 'We talked about the rollout plan and agreed it looks reasonable overall.';
    const specific = 'Rollout of build 7f3e2a19c is blocked on PR #77 and 2 failing checks.';
    const summary = summarizeExtractive(
      input([
        ['user', plain],
        ['assistant', specific],
      ]),
      { maxChars: renderPreamble(input([['user', plain]]).preamble).length + 110 },
    );
    expect(summary).toContain(specific);
    expect(summary).not.toContain(plain);
  });

  it('weights system messages above the same words from a user', () => {
    const text = 'Memory budget for this agent was raised to 4096 tokens.';
    const { picks } = extractiveSummary(
      input([
        ['user', text],
        ['system', text],
        ['assistant', 'Unrelated remarks about the weather in Lisbon today.'],
      ]),
      { maxChars: 5000 },
    );
    // Identical sentences: only one survives, and it is the system's.
    expect(picks.filter((pick) => pick.text === text).map((pick) => pick.line)).toEqual([1]);
  });

  it('shares one prefix per message and marks skipped sentences with an ellipsis', () => {
    const summary = summarizeExtractive(
      input([
        [
          'user',
          'Release 4.2.0 ships the new importer for CSV files. Lunch was fine. The importer reads files up to 2 GB. Weather is nice.',
        ],
      ]),
      { maxChars: 5000, containmentThreshold: 1 },
    );
    const body = summary.split('\n').slice(1);
    expect(body).toHaveLength(1);
    expect(body[0]).toContain('Release 4.2.0 ships the new importer for CSV files.');
    expect(body[0]).toContain('The importer reads files up to 2 GB.');
  });

  it('returns only the header for an empty span or one without content', () => {
    expect(summarizeExtractive(input([]), { maxChars: 500 })).toBe(renderPreamble(input([]).preamble));
    expect(summarizeExtractive(input([['user', 'Ok. Thanks!']]), { maxChars: 500 }).split('\n')).toHaveLength(
      1,
    );
  });

  it('is deterministic', () => {
    expect(summarizeExtractive(deployReview, { maxChars: 700 })).toBe(
      summarizeExtractive(deployReview, { maxChars: 700 }),
    );
  });

  it('handles a long span quickly', () => {
    const topics = [
      'database migration',
      'frontend build',
      'billing export',
      'search latency',
      'onboarding flow',
    ];
    const messages: [string, string][] = Array.from({ length: 600 }, (_, i) => [
      i % 2 ? 'assistant' : 'user',
      `Step ${i} of the ${topics[i % topics.length]} work touched file${i}.ts. The ${topics[(i * 7) % topics.length]} check took ${i * 3} ms.`,
    ]);
    const began = Date.now();
    const summary = summarizeExtractive(input(messages), { maxChars: 2000 });
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(summary.length).toBeLessThanOrEqual(2000);
    expect(summary.split('\n').length).toBeGreaterThan(5);
  });
});

describe('summarizeExtractive of summaries (a branch or a root)', () => {
  const leaf = (messages: [role: string, text: string][], author: string) =>
    summarizeExtractive(input(messages, author), { maxChars: 2000 });
  const leaves = [
    leaf(
      [
        ['user', 'The deploy of v2.3.1 failed because the migration timed out after 300 s.'],
        ['assistant', 'I will split the migration into two steps.'],
      ],
      'sam',
    ),
    leaf(
      [
        ['user', 'Lunch is at the Thai place on Friday.'],
        ['assistant', 'Booked a table for six people.'],
      ],
      'kim',
    ),
  ];
  const branch = input(leaves.map((text) => ['system', text] as [string, string]));

  it('drops the children’s headers and keeps each kept line under its original attribution', () => {
    const summary = summarizeExtractive(branch, { maxChars: 2000 });
    const [header, ...rest] = summary.split('\n');
    expect(header).toBe(renderPreamble(branch.preamble));
    expect(summary.match(/Conversation c-42/g)).toHaveLength(1);
    expect(rest.length).toBeGreaterThanOrEqual(3);
    for (const line of rest)
      expect(line).toMatch(/^\[#\d{2} 2026-04-18T12:0\dZ (sam|kim)\/(user|assistant)\] [^[]+$/);
    expect(summary).toContain('[#01 2026-04-18T12:00Z sam/user] The deploy of v2.3.1 failed');
  });

  it('traces each pick to the child summary it came from', () => {
    const picks = extractiveSummary(branch, { maxChars: 2000 }).picks;
    expect(new Set(picks.map((p) => p.line))).toEqual(new Set([0, 1]));
    expect(picks.find((p) => p.text.startsWith('Lunch'))?.line).toBe(1);
  });
});
