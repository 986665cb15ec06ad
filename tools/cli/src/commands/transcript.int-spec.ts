import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MsgIds, Subjects } from '@engram/contracts';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@engram/testing';
import { engramJson, runEngram } from './engram-process';

/** A turn as a runtime publishes it: the protobuf JSON of TurnEvent. */
interface Turn {
  readonly turnId: string;
  readonly sessionKey: string;
  readonly messages: ReadonlyArray<Record<string, unknown>>;
  readonly [attribute: string]: unknown;
}

/**
 * What two runtimes published to tenant acme: two agents, conversations with attributes given on
 * later turns and settings merged over turns, several messages a turn, authors, a tool call with
 * arguments, result, call id and metadata, memory and state tags, messages with their own times
 * and turns with only the turn's, a message stamped after a later turn's, equal times.
 */
const SOURCE: Array<{ agent: string; turn: Turn }> = [
  {
    agent: 'concierge',
    turn: {
      turnId: 'c1-1',
      sessionKey: 'chat-1',
      channel: 'web',
      settings: { lang: 'en' },
      occurredAt: '2026-03-01T10:00:00Z',
      messages: [
        { role: 'user', author: 'Ada', content: 'Hi, I am Ada. Please use metric units.' },
        {
          role: 'assistant',
          content:
            'Noted. [MEMORY:user_preference]Ada prefers metric units.[/MEMORY][STATE:trip]Lisbon[/STATE] Anything else?',
        },
      ],
    },
  },
  {
    agent: 'concierge',
    turn: {
      turnId: 'c1-2',
      sessionKey: 'chat-1',
      title: 'Trip to Lisbon',
      model: 'gpt-4o-mini',
      settings: { tz: 'Europe/Lisbon' },
      messages: [
        {
          role: 'assistant',
          content: '',
          toolName: 'train_lookup',
          toolCallId: 'call-7',
          toolArgs: { from: 'Porto', to: 'Lisbon', seats: 2 },
          metadata: { source: 'api', retries: 1 },
          createdAt: '2026-03-01T10:01:00.250Z',
        },
        {
          role: 'tool',
          content: 'Train 42 leaves at 10:05.',
          toolName: 'train_lookup',
          toolCallId: 'call-7',
          toolResult: { train: 42, departs: '10:05', ok: true },
          createdAt: '2026-03-01T10:01:01Z',
        },
        // Stamped after c1-3's message: it stays in its turn, and the turn keeps its place.
        { role: 'assistant', content: 'Train 42 it is.', createdAt: '2026-03-01T10:03:20Z' },
      ],
    },
  },
  {
    agent: 'concierge',
    turn: {
      turnId: 'c1-3',
      sessionKey: 'chat-1',
      messages: [{ role: 'user', author: 'Ada', content: 'Thanks!', createdAt: '2026-03-01T10:01:40Z' }],
    },
  },
  {
    agent: 'concierge',
    turn: {
      turnId: 'c2-1',
      sessionKey: 'chat-2',
      channel: 'slack',
      channelId: 'C042',
      botIdentity: 'concierge-bot',
      occurredAt: '2026-03-02T10:00:00Z',
      messages: [
        { role: 'system', content: 'You are a concierge.' },
        { role: 'user', author: 'Sam', content: 'Same time as the system line.' },
      ],
    },
  },
  {
    agent: 'support-bot',
    turn: {
      turnId: 's-1',
      sessionKey: 'ticket-9',
      occurredAt: '2026-02-26T10:00:00Z',
      messages: [
        { role: 'user', content: 'My order 1042 is late.' },
        { role: 'assistant', content: 'Sorry! [STATE:ticket]open[/STATE]It ships today.' },
      ],
    },
  },
];

const LOCOMO = [
  {
    sample_id: 'conv-1',
    conversation: {
      speaker_a: 'Caroline',
      speaker_b: 'Melanie',
      session_1: [
        { speaker: 'Caroline', dia_id: 'D1:1', text: 'I went to a support group yesterday.' },
        { speaker: 'Melanie', dia_id: 'D1:2', text: 'Look at this!', blip_caption: 'a photo of a lake' },
      ],
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_2: [{ speaker: 'Melanie', dia_id: 'D2:1', text: 'We painted a sunrise.' }],
      session_2_date_time: '10:37 am on 27 June, 2023',
    },
    qa: [],
  },
  {
    sample_id: 'conv-2',
    conversation: {
      speaker_a: 'Jon',
      speaker_b: 'Gina',
      session_1: [{ speaker: 'Jon', dia_id: 'D1:1', text: 'I lost my job.' }],
      session_1_date_time: '4:04 pm on 20 January, 2023',
    },
    qa: [],
  },
];

/**
 * `engram import` and `engram export` as a user runs them (the built command, its own process),
 * against ingest and retrieval as their own processes: export → import into an empty tenant →
 * export again gives the same lines; LoCoMo files import by sample; and the memory commands
 * answer, or exit 2 with the field violations.
 */
describe('engram export / import and the memory commands (real NATS, Postgres, ingest and retrieval)', () => {
  let env: TestEnvironment;
  let dir: string;

  const engram = (...args: string[]) => runEngram(env.env.NATS_URL, args);
  const json = (...args: string[]) => engramJson(env.env.NATS_URL, args);

  beforeAll(async () => {
    env = await startTestEnvironment({ label: 'cli-transcripts', processes: ['ingest', 'retrieval'] });
    dir = await mkdtemp(join(tmpdir(), 'engram-transcripts-'));
    for (const { agent, turn } of SOURCE)
      await env.js.publish(Subjects.turn('acme', agent), JSON.stringify(turn), {
        msgID: MsgIds.turn('acme', agent, turn.sessionKey, turn.turnId),
      });
    const messages = SOURCE.reduce((n, { turn }) => n + turn.messages.length, 0);
    await waitFor(
      'the source transcript stored',
      async () =>
        (await env.count(`SELECT count(*) AS n FROM messages WHERE tenant_id = 'acme'`)) === messages,
      20_000,
    );
  });

  afterAll(async () => {
    await env?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('exports, imports into an empty tenant and exports again to the same lines', async () => {
    const first = join(dir, 'acme.jsonl');
    const exported = await json('export', '--tenant', 'acme', '--out', first);
    expect(exported).toEqual({ conversations: 3, turns: 5, messages: 10 });
    const lines = (await readFile(first, 'utf8')).trimEnd().split('\n');
    // The file holds what was published: tags, tool calls, attributes, each message's time.
    expect(lines.map((l) => JSON.parse(l).turnId)).toEqual(['s-1', 'c1-1', 'c1-2', 'c1-3', 'c2-1']);
    expect(JSON.parse(lines[1]!)).toMatchObject({
      agent: 'concierge',
      sessionKey: 'chat-1',
      channel: 'web',
      title: 'Trip to Lisbon',
      model: 'gpt-4o-mini',
      settings: { lang: 'en', tz: 'Europe/Lisbon' },
      messages: [
        { role: 'user', author: 'Ada', createdAt: '2026-03-01T10:00:00Z' },
        { content: expect.stringContaining('[STATE:trip]Lisbon[/STATE]') },
      ],
    });
    expect(JSON.parse(lines[2]!).messages).toEqual([
      {
        role: 'assistant',
        toolName: 'train_lookup',
        toolArgs: { from: 'Porto', to: 'Lisbon', seats: 2 },
        toolCallId: 'call-7',
        metadata: { source: 'api', retries: 1 },
        createdAt: '2026-03-01T10:01:00.250Z',
      },
      {
        role: 'tool',
        content: 'Train 42 leaves at 10:05.',
        toolName: 'train_lookup',
        toolResult: { train: 42, departs: '10:05', ok: true },
        toolCallId: 'call-7',
        createdAt: '2026-03-01T10:01:01Z',
      },
      { role: 'assistant', content: 'Train 42 it is.', createdAt: '2026-03-01T10:03:20Z' },
    ]);

    const imported = await json('import', '--tenant', 'copy', first, '--wait', '--wait-timeout', '60');
    expect(imported).toEqual({
      format: 'jsonl',
      turns: 5,
      messages: 10,
      conversations: 3,
      published: 5,
      duplicates: 0,
      stored: 5,
    });
    const second = join(dir, 'copy.jsonl');
    expect(await json('export', '--tenant', 'copy', '--out', second)).toEqual(exported);
    expect((await readFile(second, 'utf8')).trimEnd().split('\n')).toEqual(lines);

    // The copy derived its memory from the tags again, as ingest did for the original.
    expect(await json('state', 'list', '--tenant', 'copy', '--agent', 'concierge')).toMatchObject({
      entries: [{ key: 'trip', value: 'Lisbon' }],
    });
    // (Its 90 days counted from when it was said, in March: expired, so listed only with the closed.)
    expect((await json('facts', 'list', '--tenant', 'copy')).facts).toEqual([]);
    expect((await json('facts', 'list', '--tenant', 'copy', '--include-closed')).facts).toMatchObject([
      { agent: 'concierge', content: 'Ada prefers metric units.', lifetime: 'user_preference' },
    ]);

    // Importing again adds nothing: the same msg ids, the same natural keys.
    expect(await json('import', '--tenant', 'copy', first)).toMatchObject({ published: 5, duplicates: 5 });
    expect(await env.count(`SELECT count(*) AS n FROM messages WHERE tenant_id = 'copy'`)).toBe(10);
  });

  it('exports one agent or one conversation, to stdout', async () => {
    const agent = await engram('export', '--tenant', 'acme', '--agent', 'support-bot');
    expect(agent.code).toBe(0);
    expect(
      agent.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).turnId),
    ).toEqual(['s-1']);
    expect(agent.stderr).toContain('exported 1 conversation(s), 1 turn(s), 2 message(s)');
    const { conversations } = await env.nc
      .request('mem.rpc.conversations.list.acme', JSON.stringify({ agent: 'concierge' }))
      .then((m) => m.json<{ conversations: Array<{ id: string; sessionKey: string }> }>());
    const chat2 = conversations.find((c) => c.sessionKey === 'chat-2')!;
    const one = await engram('export', '--tenant', 'acme', '--conversation', chat2.id);
    expect(
      one.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).turnId),
    ).toEqual(['c2-1']);
  });

  it('imports a LoCoMo file: a conversation per session, for the agent named by each sample_id', async () => {
    const file = join(dir, 'locomo.json');
    await writeFile(file, JSON.stringify(LOCOMO));
    expect(await json('import', '--tenant', 'bench', file, '--wait', '--wait-timeout', '60')).toEqual({
      format: 'locomo',
      turns: 4,
      messages: 4,
      conversations: 3,
      published: 4,
      duplicates: 0,
      stored: 4,
    });
    const run = await engram('export', '--tenant', 'bench', '--agent', 'conv-1');
    expect(
      run.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      {
        turnId: 'D1:1',
        agent: 'conv-1',
        sessionKey: 'session_1',
        messages: [
          {
            role: 'user',
            content: 'I went to a support group yesterday.',
            author: 'Caroline',
            createdAt: '2023-05-08T13:56:00Z',
          },
        ],
      },
      {
        turnId: 'D1:2',
        agent: 'conv-1',
        sessionKey: 'session_1',
        messages: [
          {
            role: 'user',
            content: 'Look at this! [image: a photo of a lake]',
            author: 'Melanie',
            createdAt: '2023-05-08T13:56:00Z',
          },
        ],
      },
      {
        turnId: 'D2:1',
        agent: 'conv-1',
        sessionKey: 'session_2',
        messages: [
          {
            role: 'user',
            content: 'We painted a sunrise.',
            author: 'Melanie',
            createdAt: '2023-06-27T10:37:00Z',
          },
        ],
      },
    ]);
  });

  it('saves, lists, updates and forgets facts, reads state, searches and browses', async () => {
    const saved = await json(
      'save',
      '--tenant',
      'acme',
      '--agent',
      'concierge',
      'Ada travels with a bicycle.',
      '--category',
      'fact',
    );
    expect(saved).toMatchObject({ factId: expect.stringMatching(/^\d+$/), deduplicated: false });
    const listed = await engram('facts', 'list', '--tenant', 'acme', '--agent', 'concierge');
    expect(listed.stdout).toMatch(
      new RegExp(`│ ${saved.factId} +│ concierge │ fact .*│ in force +│ Ada travels with a bicycle\\. │`),
    );
    const updated = await json(
      'facts',
      'update',
      '--tenant',
      'acme',
      saved.factId,
      'Ada travels with a folding bicycle.',
    );
    expect(updated).toMatchObject({ firstId: saved.factId, origin: 'updated' });
    const history = await engram('facts', 'get', '--tenant', 'acme', saved.factId);
    expect(history.stdout.split('\n')[0]).toBe(
      `fact ${updated.id} (first version ${saved.factId}), in force: Ada travels with a folding bicycle.`,
    );
    expect(history.stdout).toMatch(/│ UPDATE │/);
    expect((await engram('forget', '--tenant', 'acme', updated.id, '--reason', 'sold it')).stdout).toMatch(
      new RegExp(`^forgot fact ${updated.id} \\(closed at \\d{4}-`),
    );
    expect(
      (await engram('state', 'get', '--tenant', 'acme', '--agent', 'support-bot', 'ticket')).stdout,
    ).toBe('open\n');
    expect(
      await engram('state', 'get', '--tenant', 'acme', '--agent', 'support-bot', 'nothing'),
    ).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('support-bot has no state "nothing"'),
    });
    const hits = await json('search', '--tenant', 'acme', '--agent', 'support-bot', 'order late');
    expect(hits.hits.map((h: { content: string }) => h.content)).toContain('My order 1042 is late.');
    const page = await engram(
      'browse',
      '--tenant',
      'acme',
      '--agent',
      'support-bot',
      '--session-key',
      'ticket-9',
    );
    expect(page.stdout).toMatch(/│ user +│ +│ My order 1042 is late\. +│/);
    expect((await json('stats', '--tenant', 'acme')).messages).toBe('10');
  });

  it('searches as of a past moment: nothing said after it is found', async () => {
    const contents = (r: { hits: Array<{ content: string }> }) => r.hits.map((h) => h.content);
    const args = ['search', '--tenant', 'acme', '--agent', 'concierge', '--kind', 'message'];
    const now = await json(...args, 'train');
    expect(contents(now)).toEqual(expect.arrayContaining(['Train 42 leaves at 10:05.', 'Train 42 it is.']));
    // Between the train lookup (10:01:01) and the answer (10:03:20).
    const then = await json(...args, '--as-of', '2026-03-01T10:02:00Z', 'train');
    expect(contents(then)).toContain('Train 42 leaves at 10:05.');
    expect(contents(then)).not.toContain('Train 42 it is.');
  });

  it('exits 2 with the field violations, or what was not found', async () => {
    const bad = await engram('search', '--tenant', 'acme', '--mode', 'semantic', 'x');
    expect(bad).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        '  mode: mode must be one of fulltext, trigram, regex (got "semantic")',
      ),
    });
    expect(await engram('facts', 'get', '--tenant', 'acme', '987654')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('engram: NOT_FOUND: fact 987654 not found'),
    });
  });
});
