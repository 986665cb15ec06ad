import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTestEnvironment, type TestEnvironment } from '@engram/testing';
import { engramJson, runEngram } from './engram-process';

const FIXTURES = resolve(__dirname, '../../../../tests/fixtures/import');
const fixture = (name: string) => join(FIXTURES, name);

interface ListedFact {
  readonly id: string;
  readonly agent: string;
  readonly content: string;
  readonly category: string;
  readonly conversationId: string;
  readonly sourceMessageIds: string[];
  readonly validFrom: string;
  readonly validTo?: string;
  readonly metadata?: Record<string, unknown>;
  readonly key: string;
}

/**
 * `engram import --format mem0|letta|zep` and `engram export --format mem0` as a user runs them
 * (the built command, its own process) against ingest, retrieval and context-builder as their own
 * processes: each fixture imported twice adds nothing the second time, what it held is found
 * by search, a dry run writes nothing, and a file of another format exits 2.
 */
describe('engram import of mem0, Letta and Zep memory (real NATS, Postgres and services)', () => {
  let env: TestEnvironment;
  let dir: string;

  const engram = (...args: string[]) => runEngram(env.env.NATS_URL, args);
  const json = (...args: string[]) => engramJson(env.env.NATS_URL, args);
  const facts = async (tenant: string, ...args: string[]): Promise<ListedFact[]> =>
    (await json('facts', 'list', '--tenant', tenant, '--limit', '1000', ...args)).facts;
  const found = async (tenant: string, agent: string, query: string): Promise<string[]> =>
    (await json('search', '--tenant', tenant, '--agent', agent, '--kind', 'fact', query)).hits.map(
      (h: { content: string }) => h.content,
    );
  const rows = (tenant: string) =>
    env.count(
      `SELECT (SELECT count(*) FROM facts WHERE tenant_id = $1) + (SELECT count(*) FROM messages WHERE tenant_id = $1) AS n`,
      [tenant],
    );

  /**
   * Imports a file twice into a tenant: answers both summaries, having checked that the second
   * added no row (no fact, no message).
   */
  const importTwice = async (tenant: string, format: string, file: string) => {
    const first = await json('import', '--tenant', tenant, '--format', format, file);
    const rowsAfterFirst = await rows(tenant);
    const second = await json('import', '--tenant', tenant, '--format', format, file);
    expect(await rows(tenant)).toBe(rowsAfterFirst);
    return [first, second];
  };

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'cli-memory-import',
      processes: ['ingest', 'retrieval', 'context-builder'],
    });
    dir = await mkdtemp(join(tmpdir(), 'engram-memory-import-'));
  });

  afterAll(async () => {
    await env?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('imports mem0 memories once: a second import adds nothing, and search finds them', async () => {
    const [first, second] = await importTwice('m0', 'mem0', fixture('mem0-oss.json'));
    expect(first).toMatchObject({
      format: 'mem0',
      agents: 2,
      turns: 1,
      turnsPublished: 1,
      turnsStored: 1,
      facts: 3,
      factsSaved: 3,
      factsAlreadyThere: 0,
      refused: [],
    });
    expect(second).toMatchObject({
      turnsAlreadyStored: 1,
      turnsPublished: 0,
      factsSaved: 0,
      factsAlreadyThere: 3,
    });

    expect(await found('m0', 'alice', 'peanuts vegetarian')).toContain(
      'Is a vegetarian and allergic to peanuts',
    );
    const alice = await facts('m0', '--agent', 'alice');
    const trip = alice.find((f) => f.content.startsWith('Is planning a cycling trip'))!;
    // Its run is its conversation, and the fact rests on the words mem0's add would have published.
    const run = await json('browse', '--tenant', 'm0', '--agent', 'alice', '--session-key', 'trip-planning');
    expect(run.messages).toMatchObject([
      { content: 'Is planning a cycling trip to the Dolomites in June', author: 'alice' },
    ]);
    expect(trip.conversationId).toBe(run.messages[0].conversationId);
    expect(trip.sourceMessageIds).toEqual([run.messages[0].id]);
    expect(trip.key).toBe('mem0:5c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f');
    expect(alice.find((f) => f.content.startsWith('Is a vegetarian'))).toMatchObject({
      metadata: { source: 'onboarding' },
      validFrom: '2025-03-02T17:15:31.482Z',
    });
    expect(await facts('m0', '--agent', 'travel-assistant')).toMatchObject([
      { content: 'Answers in metric units unless asked otherwise' },
    ]);
  });

  it("imports the platform's list: categories kept, an expired memory saved closed", async () => {
    const run = await json('import', '--tenant', 'm0', '--format', 'mem0', fixture('mem0-platform.json'));
    expect(run).toMatchObject({ facts: 3, closedFacts: 1, factsSaved: 3, refused: [] });
    const bob = (await facts('m0', '--include-closed')).filter((f) => f.agent.startsWith('bob_example_com-'));
    expect(bob.map((f) => [f.content, f.category, f.validTo ?? null])).toEqual(
      expect.arrayContaining([
        ['Prefers window seats on long-haul flights', 'preference', null],
        ['Has a golden retriever named Biscuit', 'general', null],
        ['Is attending a conference in Berlin this week', 'event', '2024-09-14T00:00:00Z'],
      ]),
    );
    expect(bob.find((f) => f.category === 'preference')!.metadata).toEqual({
      channel: 'email',
      confidence: 0.9,
      mem0_categories: ['travel'],
    });
    expect((await facts('m0')).map((f) => f.content)).not.toContain(
      'Is attending a conference in Berlin this week',
    );
  });

  it('exports the facts in force as mem0 memories that import into another tenant as the same memories', async () => {
    const file = join(dir, 'm0.json');
    expect(await json('export', '--tenant', 'm0', '--format', 'mem0', '--out', file)).toEqual({
      memories: 5,
      agents: 3,
    });
    const exported = JSON.parse(await readFile(file, 'utf8')) as { results: Array<Record<string, unknown>> };
    expect(exported.results.find((m) => m['run_id'] === 'trip-planning')).toMatchObject({
      memory: 'Is planning a cycling trip to the Dolomites in June',
      user_id: 'alice',
      categories: ['general'],
    });

    expect(await json('import', '--tenant', 'm0copy', '--format', 'mem0', file)).toMatchObject({
      factsSaved: 5,
      refused: [],
    });
    const copy = join(dir, 'm0copy.json');
    await json('export', '--tenant', 'm0copy', '--format', 'mem0', '--out', copy);
    const memories = (results: Array<Record<string, unknown>>) =>
      results
        .map(({ memory, user_id, run_id, metadata, categories, created_at }) => ({
          memory,
          user_id,
          run_id,
          metadata,
          categories,
          created_at,
        }))
        .sort((a, b) => String(a.memory).localeCompare(String(b.memory)));
    expect(memories(JSON.parse(await readFile(copy, 'utf8')).results)).toEqual(memories(exported.results));
  });

  it("imports a Letta agent file: the agent's profile, its blocks and passages as facts, its messages as its transcript", async () => {
    const [first, second] = await importTwice('lt', 'letta', fixture('letta.af'));
    expect(first).toMatchObject({
      agents: 1,
      conversations: 1,
      turns: 5,
      turnsStored: 5,
      facts: 3,
      factsSaved: 3,
      profilesPut: 1,
      refused: [],
    });
    expect(second).toMatchObject({
      turnsAlreadyStored: 5,
      turnsPublished: 0,
      factsSaved: 0,
      factsAlreadyThere: 3,
    });

    expect(
      JSON.parse((await engram('agent', 'get', '--tenant', 'lt', '--agent', 'trail_guide')).stdout),
    ).toMatchObject({
      name: 'trail_guide',
      personality: expect.stringContaining('I am Trail'),
      job: 'A hiking guide that remembers the hikers it plans routes for',
      userName: 'Dana',
      tools: ['check_trail_conditions', 'conversation_search'],
      model: 'gpt-4o-mini',
    });
    expect(await found('lt', 'trail_guide', 'Lake Loop knees')).toContain(
      'Dana hiked the Lake Loop in May 2025 and found the gentle descent easy on her knees.',
    );
    const page = await json(
      'browse',
      '--tenant',
      'lt',
      '--agent',
      'trail_guide',
      '--session-key',
      'letta-agent-0',
    );
    const said = (m: { role: string; content: string; toolName: string }) => [m.role, m.toolName, m.content];
    expect(page.messages.map(said)).toEqual([
      ['user', '', "Hi, I'm Dana. My knees hurt on steep descents, so keep routes gentle."],
      ['assistant', 'check_trail_conditions', expect.any(String)],
      ['tool', 'check_trail_conditions', expect.stringContaining('Lake Loop: dry')],
      ['assistant', '', 'Noted, Dana. The Lake Loop is dry with only a gentle descent: a good start.'],
      ['user', '', "Great, I'll bring my trekking poles."],
    ]);
  });

  it('imports Zep memory: episodes as the transcript, edges as facts with their valid time', async () => {
    const [first, second] = await importTwice('zp', 'zep', fixture('zep.json'));
    expect(first).toMatchObject({
      turns: 3,
      turnsStored: 3,
      facts: 3,
      closedFacts: 1,
      factsSaved: 3,
      refused: [],
    });
    expect(second).toMatchObject({
      turnsPublished: 0,
      factsSaved: 0,
      factsAlreadyThere: 3,
    });

    expect(await found('zp', 'erin', 'Lisbon')).toContain('Erin lives in Lisbon');
    expect((await facts('zp')).map((f) => f.content)).not.toContain('Erin lived in Porto');
    const all = await facts('zp', '--include-closed');
    expect(all.find((f) => f.content === 'Erin lived in Porto')).toMatchObject({
      validFrom: '2019-09-01T00:00:00Z',
      validTo: '2024-04-15T00:00:00Z',
    });
    // A fact rests on the episodes it came from: the HR record and Erin's message.
    expect(
      all.find((f) => f.content.startsWith('Erin works the early shift'))!.sourceMessageIds,
    ).toHaveLength(2);
  });

  it('writes nothing on a dry run, and connects to nothing for it', async () => {
    // No NATS answers there: a dry run that tried to connect would fail.
    const run = await runEngram('nats://127.0.0.1:1', [
      'import',
      '--tenant',
      'dry',
      '--format',
      'zep',
      fixture('zep.json'),
      '--dry-run',
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ dryRun: true, turns: 3, facts: 3, refused: [] });
    expect(await rows('dry')).toBe(0);
  });

  it('exits 2 for a file of another format, and names each record it cannot take while importing the rest', async () => {
    expect(await engram('import', '--tenant', 'bad', '--format', 'letta', fixture('zep.json'))).toMatchObject(
      {
        code: 2,
        stderr: expect.stringContaining(
          `engram: ${fixture('zep.json')} is not a Letta agent file: no "agents" list`,
        ),
      },
    );
    const mixed = join(dir, 'mixed.json');
    await writeFile(
      mixed,
      JSON.stringify({
        results: [
          { id: 'good-1', memory: 'Collects vinyl records', user_id: 'frank' },
          { id: 'bad-1', memory: 'Nobody owns this' },
          { id: 'bad-2', memory: 'x'.repeat(4001), user_id: 'frank' },
        ],
      }),
    );
    const run = await engram('import', '--tenant', 'bad', '--format', 'mem0', mixed);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `engram: ${mixed}: memory 2 (id bad-1): names no user_id or agent_id (give --agent)`,
      `engram: ${mixed}: memory 3 (id bad-2): content is 4001 characters long; at most 4000 are accepted`,
    ]);
    expect((await facts('bad')).map((f) => f.content)).toEqual(['Collects vinyl records']);
  });
});
