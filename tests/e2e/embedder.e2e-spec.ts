import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Client } from 'pg';
import { request } from 'undici';
import { DeadLetterSchema, EmbeddingWrittenSchema, Streams, decodeMessage } from '@engram/contracts';
import {
  createScratchDatabase,
  startNatsServer,
  startService,
  waitFor,
  type NatsServerHandle,
  type ScratchDatabase,
  type ServiceProcess,
} from '@engram/testing';

/**
 * The embedder with the real ingest and the real Gerty (built-in model), each its own
 * process: vectors arrive within seconds, tool calls are described, a Gerty outage
 * leaves rows pending (never failed), a SIGKILLed embedder loses nothing and writes
 * nothing twice, and the sweep re-embeds what another model made.
 */
const BATCH = 64;
const CONCURRENCY = 2;

describe('embedder end to end', () => {
  let nats: NatsServerHandle;
  let db: ScratchDatabase;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let jsm: JetStreamManager;
  let admin: Client;
  const running: Record<string, ServiceProcess> = {};
  let turnCounter = 0;

  const env = () => ({
    NATS_URL: nats.url,
    DATABASE_URL: db.appUrl,
    EMBEDDER_SWEEP_INTERVAL_MS: '1000',
    EMBEDDER_SWEEP_GRACE_MS: '0',
    RETRY_BASE_DELAY_MS: '200',
    RETRY_MAX_DELAY_MS: '1000',
    // What a killed embedder can have asked Gerty for but not written: BATCH × CONCURRENCY events.
    EMBEDDER_BATCH_SIZE: String(BATCH),
    EMBEDDER_CONCURRENCY: String(CONCURRENCY),
  });

  async function start(name: 'ingest' | 'gerty' | 'embedder', wait = true): Promise<ServiceProcess> {
    const service = await startService(name, env());
    running[name] = service;
    if (wait) await service.waitUntilReady();
    return service;
  }

  async function stop(name: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const service = running[name];
    if (!service) return;
    service.kill(signal);
    await service.exited;
    delete running[name];
  }

  const sql = async <T extends object>(text: string, params: unknown[] = []) =>
    (await admin.query(text, params)).rows as T[];
  /** Messages with text and no vector (tool calls wait for their description first). */
  const withoutVector = async (tenant?: string) =>
    Number(
      (
        await sql<{ n: string }>(
          `SELECT count(*) AS n FROM messages m WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.item_kind = 'message' AND e.item_id = m.id)
             ${tenant ? 'AND m.tenant_id = $1' : ''}`,
          tenant ? [tenant] : [],
        )
      )[0]!.n,
    );
  const withVector = async (tenant: string) =>
    Number(
      (
        await sql<{ n: string }>(
          `SELECT count(*) AS n FROM embeddings WHERE item_kind = 'message' AND tenant_id = $1`,
          [tenant],
        )
      )[0]!.n,
    );

  async function publishTurns(
    tenant: string,
    count: number,
    messagesPerTurn = 2,
    session = 'chat',
  ): Promise<void> {
    const acks = [];
    for (let i = 0; i < count; i++) {
      const turnId = `t-${++turnCounter}`;
      const messages = Array.from({ length: messagesPerTurn }, (_, k) => ({
        role: k % 2 ? 'assistant' : 'user',
        content: `${turnId}/${k}: the quarterly report on coffee exports from Brazil ${k % 3 ? 'looks strong' : 'needs review'}`,
      }));
      acks.push(
        js.publish(`mem.turn.${tenant}.helper`, JSON.stringify({ turnId, sessionKey: session, messages }), {
          msgID: turnId,
        }),
      );
      if (acks.length >= 200) await Promise.all(acks.splice(0));
    }
    await Promise.all(acks);
  }

  async function streamMessages<T>(stream: string, decode: (data: Uint8Array) => T): Promise<T[]> {
    const info = await jsm.streams.info(stream).catch(() => null);
    const out: T[] = [];
    for (let seq = info?.state.first_seq ?? 1; info && seq <= info.state.last_seq; seq++) {
      const m = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      if (m) out.push(decode(m.data));
    }
    return out;
  }

  const announcements = () =>
    streamMessages(Streams.events.name, (d) =>
      decodeMessage(EmbeddingWrittenSchema, d, { strict: false }),
    ).then((all) =>
      all.filter((e) => e.$typeName === 'memory.v1.EmbeddingWritten' && e.kind !== '' && e.model !== ''),
    );

  async function gertyTextsEmbedded(): Promise<number> {
    const { body } = await request(`http://127.0.0.1:${running['gerty']!.httpPort}/metrics`);
    const text = await body.text();
    return Number(/engram_gerty_texts_embedded_total\{[^}]*\} (\d+)/.exec(text)?.[1] ?? 0);
  }

  beforeAll(async () => {
    [nats, db] = await Promise.all([startNatsServer(), createScratchDatabase('embedder')]);
    nc = await connect({ servers: nats.url });
    js = jetstream(nc);
    jsm = await jetstreamManager(nc);
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    // Test-only audit: every write of a message's vector, to prove none is written twice.
    await admin.query(`
      CREATE TABLE vector_writes (message_id bigint NOT NULL, model text, at timestamptz NOT NULL DEFAULT clock_timestamp());
      GRANT INSERT ON vector_writes TO engram_app;
      CREATE FUNCTION audit_vector_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO vector_writes (message_id, model) VALUES (NEW.item_id, NEW.model); RETURN NEW; END $$;
      CREATE TRIGGER audit_vector_insert AFTER INSERT ON embeddings
        FOR EACH ROW WHEN (NEW.item_kind = 'message') EXECUTE FUNCTION audit_vector_write();
      CREATE TRIGGER audit_vector_update AFTER UPDATE OF embedding ON embeddings
        FOR EACH ROW WHEN (NEW.item_kind = 'message' AND NEW.embedding IS DISTINCT FROM OLD.embedding) EXECUTE FUNCTION audit_vector_write();`);
    await Promise.all([start('ingest'), start('gerty')]);
    await start('embedder');
  });

  afterAll(async () => {
    for (const name of Object.keys(running)) await stop(name);
    await admin?.end();
    await nc?.drain();
    await nats?.stop();
    await db?.drop();
  });

  it('gives every published message a vector within seconds and describes tool calls first', async () => {
    const started = Date.now();
    await js.publish(
      'mem.turn.acme.helper',
      JSON.stringify({
        turnId: 'tools-1',
        sessionKey: 'tools',
        messages: [
          { role: 'user', content: 'What is the weather in Lisbon?' },
          { role: 'assistant', content: '', toolName: 'get_weather', toolArgs: { city: 'Lisbon' } },
          { role: 'assistant', content: 'It is 18 degrees and sunny.' },
        ],
      }),
    );
    await publishTurns('acme', 50);
    await waitFor(
      'stored',
      async () => (await sql<{ n: string }>(`SELECT count(*) AS n FROM messages`))[0]!.n === '103',
      10_000,
    );
    await waitFor('every message embedded', async () => (await withoutVector()) === 0, 15_000);
    expect(Date.now() - started).toBeLessThan(15_000);
    const [call] = await sql<{
      content: string;
      content_synthesised: boolean;
      tool_name: string;
      tool_args: unknown;
      model: string;
    }>(
      `SELECT m.content, m.content_synthesised, m.tool_name, m.tool_args, e.model
         FROM messages m JOIN embeddings e ON e.item_kind = 'message' AND e.item_id = m.id WHERE m.tool_name = 'get_weather'`,
    );
    expect(call).toMatchObject({
      content: 'Looked up the weather for Lisbon.',
      content_synthesised: true,
      tool_name: 'get_weather',
      tool_args: { city: 'Lisbon' },
    });
    expect(call!.model).toBe('engram-local-glove-sif-100d-v1');
    const norms = await sql<{ norm: number }>(
      `SELECT l2_norm(embedding)::float8 AS norm FROM embeddings LIMIT 20`,
    );
    for (const { norm } of norms) expect(norm).toBeCloseTo(1, 2);
    // Searchable by meaning already: the nearest other message to one about coffee exports is about coffee too.
    const [nearest] = await sql<{ content: string }>(
      `WITH q AS (SELECT e.item_id, e.embedding FROM embeddings e JOIN messages m ON m.id = e.item_id WHERE e.item_kind = 'message' AND m.content LIKE '%coffee exports%' LIMIT 1)
       SELECT m.content FROM embeddings e JOIN messages m ON m.id = e.item_id, q
        WHERE e.item_kind = 'message' AND e.item_id <> q.item_id ORDER BY e.embedding <=> q.embedding LIMIT 1`,
    );
    expect(nearest!.content).toContain('coffee');
  });

  it('leaves rows pending while Gerty is down, dead-letters nothing, and catches up when it is back', async () => {
    await stop('gerty');
    const before = Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM messages`))[0]!.n);
    await publishTurns('acme', 20);
    await waitFor(
      'stored',
      async () =>
        Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM messages`))[0]!.n) === before + 40,
      10_000,
    );
    await new Promise((r) => setTimeout(r, 3000));
    expect(await withoutVector()).toBe(40);
    const ready = await request(`http://127.0.0.1:${running['embedder']!.httpPort}/health/ready`);
    expect(ready.statusCode).toBe(503);
    expect(JSON.stringify(await ready.body.json())).toContain('gerty');
    await start('gerty');
    await waitFor('caught up', async () => (await withoutVector()) === 0, 20_000);
    const dead = await streamMessages(Streams.deadLetters.name, (d) =>
      decodeMessage(DeadLetterSchema, d, { strict: false }),
    );
    expect(dead.filter((l) => l.consumer.startsWith('embedder'))).toEqual([]);
  });

  it('loses nothing and writes no vector twice when the embedder is SIGKILLed mid-batch', async () => {
    const embeddedBefore = await gertyTextsEmbedded();
    const rowsBefore = Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM messages`))[0]!.n);
    await stop('embedder');
    await publishTurns('globex', 1500, 2, 'busy');
    const total = rowsBefore + 3000;
    await waitFor(
      'stored',
      async () => Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM messages`))[0]!.n) === total,
      30_000,
    );
    await start('embedder', false);
    await waitFor('embedding under way', async () => (await withVector('globex')) > 0, 20_000, 5);
    await stop('embedder', 'SIGKILL');
    expect(await withVector('globex')).toBeLessThan(3000);
    await start('embedder');
    await waitFor('all embedded', async () => (await withoutVector()) === 0, 60_000);

    // No vector was written twice.
    const writes = await sql<{ times: string; n: string }>(
      `SELECT count(*) AS times, count(DISTINCT message_id) AS n FROM vector_writes w JOIN messages m ON m.id = w.message_id WHERE m.tenant_id = 'globex'`,
    );
    expect(writes[0]).toEqual({ times: '3000', n: '3000' });
    // Every vector was announced (what the killed process wrote but did not announce, once its events came back).
    const announcedIds = async () => {
      const ids = new Set<string>();
      for (const event of await announcements())
        if (event.tenantId === 'globex') event.ids.forEach((id) => ids.add(id));
      return ids.size;
    };
    await waitFor('every vector announced', async () => (await announcedIds()) === 3000, 30_000, 500);
    // Gerty embedded each text once, plus at most what the killed process had asked for but not written.
    const embeddedNow = await gertyTextsEmbedded();
    expect(embeddedNow - embeddedBefore).toBeGreaterThanOrEqual(3000);
    expect(embeddedNow - embeddedBefore).toBeLessThanOrEqual(3000 + CONCURRENCY * BATCH * 2); // 2 messages per turn
  });

  it('re-embeds with the current model what another model embedded (the sweep)', async () => {
    await admin.query(
      `UPDATE embeddings SET model = 'some-old-model' WHERE item_kind = 'message' AND item_id IN (SELECT item_id FROM embeddings WHERE tenant_id = 'acme' ORDER BY item_id LIMIT 25)`,
    );
    await waitFor(
      'swept',
      async () =>
        (await sql<{ n: string }>(`SELECT count(*) AS n FROM embeddings WHERE model = 'some-old-model'`))[0]!
          .n === '0',
      20_000,
    );
    expect(await withoutVector()).toBe(0);
    expect(
      (
        await sql<{ n: string }>(
          `SELECT count(*) AS n FROM embeddings WHERE model <> 'engram-local-glove-sif-100d-v1'`,
        )
      )[0]!.n,
    ).toBe('0');
  });

  it('describes historical tool calls with the backfill command, once however often it runs', async () => {
    // Stored before tool synthesis existed: no event will ever ask for them.
    await admin.query(`
      INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, tool_name, tool_args, token_estimate, created_at)
      SELECT tenant_id, id, agent, 'legacy-' || g, 0, 0, 'assistant', '', 'send_email', '{"to":"ada@example.com","subject":"Q3 report"}', 0, now()
        FROM conversations, generate_series(1, 3) g WHERE tenant_id = 'acme' AND session_key = 'chat'`);
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [resolve(__dirname, '../../tools/cli/dist/main.js'), 'memory', ...args], {
        env: { ...process.env, ...env() },
        encoding: 'utf8',
      });
    const dry = cli('backfill-tool-synthesis', '--dry-run');
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain('would enqueue 3 tool call(s)');
    await new Promise((r) => setTimeout(r, 1500));
    expect(
      (await sql(`SELECT id FROM messages WHERE turn_id LIKE 'legacy-%' AND content <> ''`)).length,
    ).toBe(0);

    expect(cli('backfill-tool-synthesis').stdout).toContain('enqueued 3 tool call(s)');
    expect(cli('backfill-tool-synth').status).toBe(0); // the command's former name, an alias
    await waitFor(
      'described',
      async () =>
        (
          await sql(
            `SELECT m.id FROM messages m JOIN embeddings e ON e.item_kind = 'message' AND e.item_id = m.id WHERE m.turn_id LIKE 'legacy-%' AND m.content <> ''`,
          )
        ).length === 3,
      20_000,
    );
    const rows = await sql<{ content: string; content_synthesised: boolean }>(
      `SELECT content, content_synthesised FROM messages WHERE turn_id LIKE 'legacy-%'`,
    );
    expect(rows.map((r) => [r.content_synthesised, r.content])).toEqual(
      Array(3).fill([true, 'Sent an email "Q3 report" to ada@example.com.']),
    );

    const status = cli('queue-status', '--json');
    expect(status.status).toBe(0);
    const queues = status.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { queue: string; pending: number; failed: number });
    expect(queues.find((q) => q.queue === 'embedder-toolsynth')).toMatchObject({ pending: 0, failed: 0 });
    expect(queues.map((q) => q.queue)).toEqual(
      expect.arrayContaining(['ingest-turns', 'embedder-messages', 'embedder-toolsynth']),
    );
  });
});
