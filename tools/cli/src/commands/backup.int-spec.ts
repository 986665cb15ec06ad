import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Client } from 'pg';
import { MsgIds, Rpcs, Subjects, timestampFromDate } from '@engram/contracts';
import { callRpc, readQueueStatus } from '@engram/messaging';
import {
  startNatsServer,
  startService,
  startTestEnvironment,
  waitFor,
  type NatsServerHandle,
  type ServiceProcess,
  type TestEnvironment,
} from '@engram/testing';

const CLI = resolve(__dirname, '../../dist/main.js');
const TENANT = 'acme';
const AGENT = 'concierge';
const NOW = new Date('2026-03-05T12:00:00Z');

/** Turns a runtime published: two conversations of acme (a memory tag, a tool call), one of globex. */
const TURNS: Array<{
  tenant: string;
  agent: string;
  turn: Record<string, unknown> & { turnId: string; sessionKey: string };
}> = [
  {
    tenant: TENANT,
    agent: AGENT,
    turn: {
      turnId: 't1',
      sessionKey: 'trip',
      occurredAt: '2026-03-01T10:00:00Z',
      messages: [
        {
          role: 'user',
          author: 'Ada',
          content: 'I am planning a train trip from Porto to Lisbon next week.',
        },
        {
          role: 'assistant',
          content:
            'Lovely. [MEMORY:sticky]Ada prefers window seats on trains.[/MEMORY] Shall I look up the trains?',
        },
      ],
    },
  },
  {
    tenant: TENANT,
    agent: AGENT,
    turn: {
      turnId: 't2',
      sessionKey: 'trip',
      occurredAt: '2026-03-01T10:02:00Z',
      messages: [
        { role: 'user', author: 'Ada', content: 'Yes please, the morning train to Lisbon.' },
        {
          role: 'assistant',
          content: 'The Alfa Pendular leaves Porto at 08:39 and reaches Lisbon at 11:35.',
        },
      ],
    },
  },
  {
    tenant: TENANT,
    agent: AGENT,
    turn: {
      turnId: 't1',
      sessionKey: 'dinner',
      occurredAt: '2026-03-02T18:00:00Z',
      messages: [
        { role: 'user', author: 'Ada', content: 'Book a table for two at a seafood restaurant in Lisbon.' },
        { role: 'assistant', content: 'I booked a table at Cervejaria Ramiro for 20:00 on Friday.' },
      ],
    },
  },
  {
    tenant: 'globex',
    agent: 'support',
    turn: {
      turnId: 't1',
      sessionKey: 'ticket-7',
      occurredAt: '2026-03-03T09:00:00Z',
      messages: [
        { role: 'user', content: 'The train ticket printer in Lisbon is jammed again.' },
        { role: 'assistant', content: 'I opened ticket 7 for the printer.' },
      ],
    },
  },
];

/** Stored while the embedder is stopped: its tool call is still without a description at the backup. */
const UNDESCRIBED = {
  turnId: 't3',
  sessionKey: 'trip',
  occurredAt: '2026-03-01T10:05:00Z',
  messages: [
    { role: 'user', author: 'Ada', content: 'And the weather there?' },
    {
      role: 'assistant',
      content: '',
      toolName: 'weather_lookup',
      toolCallId: 'call-1',
      toolArgs: { city: 'Lisbon' },
    },
  ],
};

/** Published while ingest is stopped: only the stream holds it at the backup. */
const UNCONSUMED = {
  turnId: 't2',
  sessionKey: 'dinner',
  occurredAt: '2026-03-02T18:05:00Z',
  messages: [{ role: 'user', author: 'Ada', content: 'Remember the zanzibarquux voucher for the dinner.' }],
};

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** What the user relies on: the same searches, transcript, prompt, facts and dead letters. */
async function answers(nc: NatsConnection) {
  const search = async (tenantId: string, query: string) =>
    (
      await callRpc(
        nc,
        Rpcs.search,
        { query, topK: 10, recordAccess: false },
        { tenantId, timeoutMs: 20_000 },
      )
    ).hits.map((h) => ({ ref: `${h.kind}:${h.id}`, content: h.content, score: h.score.toFixed(3) }));
  const options = { tenantId: TENANT, timeoutMs: 20_000 };
  const browse = await callRpc(nc, Rpcs.browse, { agent: AGENT, sessionKey: 'trip', limit: 50 }, options);
  const context = await callRpc(
    nc,
    Rpcs.contextBuild,
    {
      agent: AGENT,
      sessionKey: 'dinner',
      currentMessage: 'Which train do we take to Lisbon?',
      asOf: timestampFromDate(NOW),
    },
    options,
  );
  const facts = await callRpc(nc, Rpcs.factsList, { agents: [AGENT], includeClosed: true }, options);
  const letters = await callRpc(nc, Rpcs.deadLettersList, {}, options);
  return {
    searches: {
      train: await search(TENANT, 'train to Lisbon'),
      seats: await search(TENANT, 'window seats'),
      dinner: await search(TENANT, 'seafood restaurant booking'),
      globex: await search('globex', 'printer jammed'),
    },
    transcript: browse.messages.map((m) => ({ id: m.id, role: m.role, content: m.content })),
    prompt: { blocks: context.blocks, totalTokens: context.totalTokens, prefixHash: context.prefixHash },
    facts: facts.facts.map((f) => ({ id: f.id, content: f.content, category: f.category })),
    // A letter's sequence is its place in the stream, which a restore publishes anew.
    deadLetters: letters.letters.map(({ sequence: _, ...letter }) => letter),
  };
}

/**
 * `engram backup` and `engram restore` as an operator runs them (the built command, its own
 * process), against the services as processes: conversations derived through the real pipeline,
 * a tool call still undescribed, a turn not yet ingested and a dead letter at the backup; the
 * restore into a fresh database and a fresh nats-server answers the same searches, transcript,
 * prompt, facts and dead letters, and the restored streams and outbox finish what was pending.
 */
describe('engram backup / restore (real Postgres, NATS and services)', () => {
  let env: TestEnvironment;
  let dir: string;
  let nats: NatsServerHandle | undefined;
  let restoredDb: string | undefined;
  let nc: NatsConnection | undefined;
  const restoredServices: ServiceProcess[] = [];

  const engram = (extra: Record<string, string>, ...args: string[]) =>
    new Promise<Run>((done) =>
      execFile(
        process.execPath,
        [CLI, ...args],
        { env: { ...process.env, ...extra } },
        (error, stdout, stderr) =>
          done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );

  const publish = (tenant: string, agent: string, turn: { turnId: string; sessionKey: string }) =>
    env.js.publish(Subjects.turn(tenant, agent), JSON.stringify(turn), {
      msgID: MsgIds.turn(tenant, agent, turn.sessionKey, turn.turnId),
    });

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'backup',
      processes: ['gerty', 'ingest', 'embedder', 'compactor', 'retrieval', 'context-builder'],
    });
    dir = await mkdtemp(join(tmpdir(), 'engram-backup-'));
  });

  afterAll(async () => {
    for (const service of restoredServices) {
      service.kill();
      await service.exited;
    }
    await nc?.close();
    await nats?.stop();
    if (restoredDb) await env.admin.query(`DROP DATABASE IF EXISTS "${restoredDb}" WITH (FORCE)`);
    await env?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('restores the store and the streams so that memory answers as before', async () => {
    for (const { tenant, agent, turn } of TURNS) await publish(tenant, agent, turn);
    // Unknown field: dead-lettered at once.
    await env.js.publish(
      Subjects.turn(TENANT, AGENT),
      JSON.stringify({ ...UNCONSUMED, turnId: 'bad', colour: 'red' }),
    );
    const jsm = await jetstreamManager(env.nc);
    const drained = async () =>
      (await readQueueStatus(jsm)).queues.every((q) => q.pending + q.inFlight === 0) &&
      (await env.count(`SELECT count(*) AS n FROM outbox`)) === 0;
    await waitFor(
      'the turns stored and derived',
      async () => (await env.count(`SELECT count(*) AS n FROM messages`)) === 8 && (await drained()),
      30_000,
      200,
    );

    // The embedder stops: a tool call is stored without its description, its event unconsumed.
    const embedder = env.process('embedder');
    embedder.kill();
    await embedder.exited;
    await publish(TENANT, AGENT, UNDESCRIBED);
    await waitFor(
      'the tool call stored',
      async () => (await env.count(`SELECT count(*) AS n FROM messages`)) === 10,
      20_000,
      100,
    );
    const before = await answers(env.nc);
    expect(before.searches.train.length).toBeGreaterThan(0);
    expect(before.searches.globex[0]?.content).toContain('printer');
    expect(before.transcript).toHaveLength(6);
    expect(before.facts.map((f) => f.content)).toContain('Ada prefers window seats on trains.');
    expect(before.deadLetters).toHaveLength(1);
    expect(before.prompt.blocks.length).toBeGreaterThan(0);

    // Ingest stops: a turn waits in TURNS.
    const ingest = env.process('ingest');
    ingest.kill();
    await ingest.exited;
    await publish(TENANT, AGENT, UNCONSUMED);

    const source = {
      DATABASE_OWNER_URL: env.db.ownerUrl,
      DATABASE_URL: env.db.appUrl,
      NATS_URL: env.nats.url,
    };
    const backup = join(dir, 'backup');
    const backedUp = await engram(source, 'backup', backup, '--json');
    expect(backedUp).toMatchObject({ code: 0, stderr: '' });
    const manifest = JSON.parse(backedUp.stdout);
    // Only what Postgres lacks: the waiting turn, the undescribed tool call's event, the dead letter.
    expect(manifest.streams.kept).toEqual({ TURNS: 1, MEMORY_EVENTS: 1, DEADLETTERS: 1 });
    expect(manifest.database.bytes).toBeGreaterThan(0);
    expect(JSON.parse(await readFile(join(backup, 'manifest.json'), 'utf8'))).toEqual(manifest);
    // A backup is not written over.
    expect((await engram(source, 'backup', backup)).code).toBe(2);

    // A fresh database and a fresh nats-server.
    nats = await startNatsServer();
    restoredDb = `${env.db.name}_restored`;
    const on = (url: string) => {
      const u = new URL(url);
      u.pathname = `/${restoredDb}`;
      return u.toString();
    };
    const target = {
      DATABASE_OWNER_URL: on(env.db.ownerUrl),
      DATABASE_URL: on(env.db.appUrl),
      NATS_URL: nats.url,
    };
    const restored = await engram(target, 'restore', backup, '--json');
    expect(restored).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(restored.stdout)).toMatchObject({
      database: restoredDb,
      migrationsApplied: [],
      toolCallsEnqueued: 1,
      published: { TURNS: 1, MEMORY_EVENTS: 1, DEADLETTERS: 1 },
    });
    // Restoring over it again is refused.
    const again = await engram(target, 'restore', backup);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already holds an Engram schema');

    const serve = { NATS_URL: nats.url, DATABASE_URL: target.DATABASE_URL };
    for (const name of ['gerty', 'retrieval', 'context-builder'])
      restoredServices.push(await startService(name, serve));
    await Promise.all(restoredServices.map((s) => s.waitUntilReady()));
    nc = await connect({ servers: nats.url });
    expect(await answers(nc)).toEqual(before);

    // The workers take what the streams and the outbox kept: the waiting turn, the tool call's description.
    for (const name of ['ingest', 'embedder']) restoredServices.push(await startService(name, serve));
    const admin = new Client({ connectionString: on(env.db.adminUrl) });
    await admin.connect();
    try {
      await waitFor(
        'the waiting turn stored and the tool call described',
        async () => {
          const { rows } = await admin.query<{ stored: string; described: string }>(
            `SELECT (SELECT count(*) FROM messages WHERE content LIKE '%zanzibarquux%') AS stored,
                    (SELECT count(*) FROM messages WHERE tool_name = 'weather_lookup' AND content <> '') AS described`,
          );
          return rows[0]!.stored === '1' && rows[0]!.described === '1';
        },
        30_000,
        200,
      );
    } finally {
      await admin.end();
    }
    const hits = await callRpc(
      nc,
      Rpcs.search,
      { query: 'zanzibarquux voucher', recordAccess: false, consistency: 'strong' },
      { tenantId: TENANT, timeoutMs: 20_000 },
    );
    expect(hits.hits[0]?.content).toContain('zanzibarquux');
  });
});
