import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Client } from 'pg';
import { Consumers, Rpcs, Streams, Subjects, rpcSubject } from '@engram/contracts';
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
 * Every writer SIGKILLed between its commit and its publish (the failpoint
 * `outbox.after-commit`, set only in tests): what it committed waits in the outbox and
 * is nowhere else; once it runs again, every event arrives exactly once — ingest's stored
 * turn and tagged fact, memory_save's and memory_forget's fact events (the client
 * retrying its request), the compactor's summary. Each case prints its counts.
 */
describe('the outbox through a SIGKILL between commit and publish (real processes, Postgres, NATS)', () => {
  let nats: NatsServerHandle;
  let db: ScratchDatabase;
  let admin: Client;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let jsm: JetStreamManager;
  const running: ServiceProcess[] = [];

  const env = (extra: Record<string, string> = {}) => ({
    NATS_URL: nats.url,
    DATABASE_URL: db.appUrl,
    RETRY_BASE_DELAY_MS: '100',
    RETRY_MAX_DELAY_MS: '500',
    ...extra,
  });
  const count = async (text: string, params: unknown[] = []) =>
    Number((await admin.query<{ n: string }>(text, params)).rows[0]!.n);

  async function start(name: string, extra: Record<string, string> = {}): Promise<ServiceProcess> {
    const service = await startService(name, env(extra));
    running.push(service);
    await service.waitUntilReady();
    return service;
  }

  /** Starts the service armed to die right after committing a change announced on `subject`. */
  async function startDoomed(
    name: string,
    subject: string,
    extra: Record<string, string> = {},
  ): Promise<ServiceProcess> {
    const service = await startService(
      name,
      env({ ...extra, ENGRAM_FAILPOINTS: `outbox.after-commit:${subject}` }),
    );
    running.push(service);
    await service.waitUntilReady();
    return service;
  }

  /** How the armed service ended: it must have killed itself at its failpoint, within seconds. */
  function death(service: ServiceProcess): Promise<number | NodeJS.Signals> {
    return Promise.race([
      service.exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`${service.name} did not die at its failpoint`)), 15_000),
      ),
    ]);
  }

  async function stop(service: ServiceProcess): Promise<void> {
    service.kill('SIGTERM');
    await service.exited;
  }

  /** How often each msg id is in the events stream (the stream's dedup window would hide a repeat within it). */
  async function eventsByMsgId(subject: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const info = await jsm.streams.info(Streams.events.name);
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const m = await jsm.streams.getMessage(Streams.events.name, { seq }).catch(() => null);
      if (m?.subject !== subject) continue;
      const id = m.header?.get('Nats-Msg-Id') ?? '';
      out.set(id, (out.get(id) ?? 0) + 1);
    }
    return out;
  }

  /** How many of these msg ids still wait in the outbox (a published row leaves it). */
  async function waiting(msgIds: string[]): Promise<number> {
    return count(`SELECT count(*) AS n FROM outbox WHERE msg_id = ANY($1)`, [msgIds]);
  }

  /** After the restart: each msg id in the stream once, none left waiting; prints the counts. */
  async function expectExactlyOnce(writer: string, subject: string, msgIds: string[]): Promise<void> {
    await waitFor(`${writer}'s events published`, async () => (await waiting(msgIds)) === 0, 30_000, 100);
    const stored = await eventsByMsgId(subject);
    const counts = {
      writer,
      committed: msgIds.length,
      published: msgIds.filter((id) => stored.has(id)).length,
      lost: msgIds.filter((id) => !stored.has(id)).length,
      duplicated: [...stored.values()].filter((n) => n > 1).length,
    };
    console.log(JSON.stringify(counts));
    expect(counts).toEqual({
      writer,
      committed: msgIds.length,
      published: msgIds.length,
      lost: 0,
      duplicated: 0,
    });
  }

  async function rpc(
    name: keyof typeof Rpcs,
    request: object,
    timeout = 5000,
  ): Promise<Record<string, unknown>> {
    const reply = await nc.request(rpcSubject(Rpcs[name], 'acme'), JSON.stringify(request), { timeout });
    if (reply.headers?.get('Nats-Service-Error-Code')) throw new Error(reply.string());
    return reply.json();
  }

  /** Waits until a durable consumer has nothing pending or in flight (redeliveries included). */
  async function settled(consumer: { durable: string; stream: { name: string } }, timeoutMs: number) {
    await waitFor(
      `${consumer.durable} settled`,
      async () => {
        const info = await jsm.consumers.info(consumer.stream.name, consumer.durable);
        return info.num_pending === 0 && info.num_ack_pending === 0;
      },
      timeoutMs,
      200,
    );
  }

  beforeAll(async () => {
    [nats, db] = await Promise.all([startNatsServer(), createScratchDatabase('outbox_crash')]);
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    nc = await connect({ servers: nats.url });
    js = jetstream(nc);
    jsm = await jetstreamManager(nc);
  });

  afterAll(async () => {
    for (const service of running) {
      service.kill('SIGTERM');
      await service.exited;
    }
    await nc?.drain();
    await admin?.end();
    await nats?.stop();
    await db?.drop();
  });

  it('ingest: the stored turn and its tagged fact', async () => {
    const doomed = await startDoomed('ingest', 'mem.message.stored');
    const turn = {
      turnId: 'turn-1',
      sessionKey: 'chat',
      messages: [
        { role: 'user', content: 'I am Ada and I prefer metric units.' },
        { role: 'assistant', content: 'Noted. [MEMORY:user_preference]Ada prefers metric units.[/MEMORY]' },
      ],
    };
    await js.publish(Subjects.turn('acme', 'helper'), JSON.stringify(turn), { msgID: turn.turnId });
    expect(await death(doomed)).toBe('SIGKILL');

    // Committed — the messages, the fact and both announcements — and not published.
    expect(await count(`SELECT count(*) AS n FROM messages`)).toBe(2);
    const conversation = (await admin.query<{ id: string }>(`SELECT id::text FROM conversations`)).rows[0]!
      .id;
    const factId = (await admin.query<{ id: string }>(`SELECT id::text FROM facts`)).rows[0]!.id;
    const stored = [`stored:acme:${conversation}:turn-1`];
    const facts = [`fact:acme:${factId}:created`];
    expect(await waiting([...stored, ...facts])).toBe(2);
    expect((await eventsByMsgId(Subjects.messageStored('acme'))).size).toBe(0);

    // Restarted: the turn comes back (unacknowledged), adds nothing; the relay publishes.
    await start('ingest');
    await expectExactlyOnce('ingest', Subjects.messageStored('acme'), stored);
    await expectExactlyOnce('ingest (tagged fact)', Subjects.factUpserted('acme'), facts);
    await settled(Consumers.ingestTurns, Consumers.ingestTurns.ackWaitMs + 15_000);
    expect(await count(`SELECT count(*) AS n FROM messages`)).toBe(2);
    expect(await count(`SELECT count(*) AS n FROM facts`)).toBe(1);
    expect((await eventsByMsgId(Subjects.messageStored('acme'))).get(stored[0]!)).toBe(1);
  }, 90_000);

  it('memory_save and memory_forget: a fact saved, then forgotten, the client retrying each', async () => {
    const save = { agent: 'helper', content: 'The office is in Lisbon.', category: 'fact' };
    const doomed = await startDoomed('retrieval', 'mem.fact.upserted');
    await expect(rpc('save', save, 2000)).rejects.toThrow();
    expect(await death(doomed)).toBe('SIGKILL');
    const factId = (
      await admin.query<{ id: string }>(`SELECT id::text FROM facts WHERE content = $1`, [save.content])
    ).rows[0]!.id;
    const created = [`fact:acme:${factId}:created`];
    expect(await waiting(created)).toBe(1);

    let retrieval = await start('retrieval');
    // The client did not get its answer and retries: the same fact, no second event.
    expect(await rpc('save', save)).toMatchObject({ factId, deduplicated: true });
    await expectExactlyOnce('memory_save', Subjects.factUpserted('acme'), created);

    await stop(retrieval);
    const doomedAgain = await startDoomed('retrieval', 'mem.fact.upserted');
    await expect(rpc('forget', { factId, reason: 'moved' }, 2000)).rejects.toThrow();
    expect(await death(doomedAgain)).toBe('SIGKILL');
    expect(
      await count(`SELECT count(*) AS n FROM facts WHERE id = $1 AND valid_to IS NOT NULL`, [factId]),
    ).toBe(1);
    const forgotten = [`fact:acme:${factId}:forgotten`];
    expect(await waiting(forgotten)).toBe(1);

    retrieval = await start('retrieval');
    expect(await rpc('forget', { factId, reason: 'moved' })).toMatchObject({ factId });
    await expectExactlyOnce('memory_forget', Subjects.factUpserted('acme'), forgotten);
  }, 90_000);

  it('compactor: a leaf summary', async () => {
    // Ingest (restarted in the first case) stores the turns; Gerty writes the summary.
    await start('gerty');
    const compactorEnv = { COMPACTOR_LEAF_MESSAGES: '4' };
    const doomed = await startDoomed('compactor', 'mem.summary.created', compactorEnv);
    for (let t = 0; t < 2; t++) {
      const turn = {
        turnId: `leaf-${t}`,
        sessionKey: 'leaf',
        messages: [0, 1].map((k) => ({
          role: 'user',
          author: 'Ada',
          content: `Turn ${t}.${k}: the harvest report.`,
        })),
      };
      await js.publish(Subjects.turn('acme', 'helper'), JSON.stringify(turn), { msgID: turn.turnId });
    }
    expect(await death(doomed)).toBe('SIGKILL');
    const summaryId = (await admin.query<{ id: string }>(`SELECT id::text FROM summaries`)).rows[0]!.id;
    const created = [`summary:acme:${summaryId}:created`];
    expect(await waiting(created)).toBe(1);
    expect((await eventsByMsgId(Subjects.summaryCreated('acme'))).size).toBe(0);

    await start('compactor', compactorEnv);
    await expectExactlyOnce('compactor', Subjects.summaryCreated('acme'), created);
    // The redelivered events find the leaf written: no second summary, no second event.
    await settled(Consumers.compactorSummaries, Consumers.compactorSummaries.ackWaitMs + 15_000);
    expect(await count(`SELECT count(*) AS n FROM summaries`)).toBe(1);
    expect((await eventsByMsgId(Subjects.summaryCreated('acme'))).get(created[0]!)).toBe(1);
  }, 120_000);
});
