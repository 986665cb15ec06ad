import { Injectable, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Client } from 'pg';
import { register } from 'prom-client';
import { DeadLetterSchema, Events, Streams, decodeMessage } from '@engram/contracts';
import { PlatformModule } from '@engram/platform';
import {
  actAsTenant,
  appendToOutbox,
  DataSource,
  OutboxStore,
  StoreModule,
  TenantTransactions,
  type OutboxEntry,
} from '@engram/store';
import { ROOT_CONTEXT, trace } from '@engram/telemetry';
import {
  createScratchDatabase,
  startNatsServer,
  waitFor,
  type NatsServerHandle,
  type ScratchDatabase,
} from '@engram/testing';
import { listenOnJetStream } from '../listen-on-jetstream';
import { MessagingModule } from '../messaging.module';
import { eventEntry, Outbox } from './outbox';
import { OutboxModule } from './outbox.module';
import type { OutboxOptions } from './outbox.options';
import { OutboxRelay } from './outbox.relay';

/**
 * The outbox against real Postgres (row-level security, the relay's SECURITY DEFINER
 * functions) and a real nats-server: what a transaction announces is published once it
 * commits, exactly once per msg id, whoever publishes it and however often.
 */
describe('the transactional outbox', () => {
  let nats: NatsServerHandle;
  let db: ScratchDatabase;
  let admin: Client;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const apps: INestApplication[] = [];

  async function startApp(options: Partial<OutboxOptions> = {}): Promise<INestApplication> {
    @Injectable()
    class TestModule {}
    const app = await NestFactory.create(
      {
        module: TestModule,
        imports: [
          PlatformModule.forRoot({ service: 'test', logLevel: 'silent' }),
          MessagingModule.forRoot({
            service: 'test',
            natsUrl: nats.url,
            streamReplicas: 1,
            retry: { baseDelayMs: 50, maxDelayMs: 200 },
            rpc: { concurrency: 4, maxQueued: 10 },
            shutdownGraceMs: 1000,
          }),
          StoreModule.forRoot({ url: db.appUrl, poolSize: 4, service: 'test' }),
          OutboxModule.forRoot({ intervalMs: 100, maxAttempts: 3, ...options }),
        ],
      },
      { logger: false },
    );
    await listenOnJetStream(app);
    apps.push(app);
    return app;
  }

  const fact = (tenantId: string, factId: string): OutboxEntry =>
    eventEntry(
      Events.factUpserted,
      tenantId,
      { tenantId, agent: 'a', factId, operation: 'created', category: 'fact' },
      { msgId: `fact:${tenantId}:${factId}:created` },
    );

  /** Every message on a subject (from the start), with its msg id. */
  async function stored(subject: string): Promise<Array<{ msgId: string; traceparent?: string }>> {
    const info = await jsm.streams.info(Streams.events.name).catch(() => null);
    const out: Array<{ msgId: string; traceparent?: string }> = [];
    for (let seq = info?.state.first_seq ?? 1; info && seq <= info.state.last_seq; seq++) {
      const m = await jsm.streams.getMessage(Streams.events.name, { seq }).catch(() => null);
      if (m?.subject !== subject) continue;
      const traceparent = m.header?.get('traceparent');
      out.push({ msgId: m.header?.get('Nats-Msg-Id') ?? '', ...(traceparent && { traceparent }) });
    }
    return out;
  }

  /** What waits to be published (a published row leaves the outbox). */
  const outboxRows = async () =>
    (
      await admin.query<{ msg_id: string; attempts: number; last_error: string | null }>(
        `SELECT msg_id, attempts, last_error FROM outbox ORDER BY id`,
      )
    ).rows;

  /** Writes rows as a writer that dies right after its commit would leave them: in the outbox, never published. */
  async function commitWithoutPublishing(
    app: INestApplication,
    tenantId: string,
    entries: OutboxEntry[],
    graceMs = 0,
  ) {
    await app.get(DataSource).transaction(async (m) => {
      await actAsTenant(m, tenantId);
      await appendToOutbox(m, tenantId, entries, graceMs);
    });
  }

  beforeAll(async () => {
    [nats, db] = await Promise.all([startNatsServer(), createScratchDatabase('outbox')]);
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    nc = await connect({ servers: nats.url });
    jsm = await jetstreamManager(nc);
  });

  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await jsm.streams.purge(Streams.events.name).catch(() => undefined);
    await jsm.streams.purge(Streams.deadLetters.name).catch(() => undefined);
    await admin.query(`TRUNCATE outbox`);
  });

  afterAll(async () => {
    await nc.drain();
    await admin.end();
    await nats.stop();
    await db.drop();
  });

  it('publishes what a transaction announced as soon as it committed, under its msg id and with its trace', async () => {
    const app = await startApp({ intervalMs: 60_000 });
    const traceContext = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 1, // sampled
    });
    await app
      .get(TenantTransactions)
      .run('acme', (m) =>
        app
          .get(Outbox)
          .announce(
            m,
            Events.factUpserted,
            'acme',
            { tenantId: 'acme', agent: 'a', factId: '1', operation: 'created', category: 'fact' },
            { msgId: 'fact:acme:1:created', traceContext },
          ),
      );
    // No sweep ran (a minute away): the writer published it itself before `run` returned.
    expect(await stored('mem.fact.upserted.acme')).toEqual([
      {
        msgId: 'fact:acme:1:created',
        traceparent: expect.stringMatching(/^00-0af7651916cd43dd8448eb211c80319c-/),
      },
    ]);
    // Published, it leaves the outbox a moment later.
    await waitFor('removed from the outbox', async () => (await outboxRows()).length === 0, 5000);
  });

  it('announces nothing when the transaction rolls back', async () => {
    const app = await startApp();
    await expect(
      app.get(TenantTransactions).run('acme', async (m) => {
        await app.get(Outbox).add(m, 'acme', [fact('acme', '2')]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await app.get(OutboxRelay).sweep();
    expect(await outboxRows()).toEqual([]);
    expect(await stored('mem.fact.upserted.acme')).toEqual([]);
  });

  it('keeps one event per msg id, however often the change is announced', async () => {
    const app = await startApp({ intervalMs: 60_000 });
    // While its event waits (its writer died), announcing the change again adds no row.
    for (let i = 0; i < 2; i++) await commitWithoutPublishing(app, 'acme', [fact('acme', '3')], 60_000);
    expect((await outboxRows()).map((r) => r.msg_id)).toEqual(['fact:acme:3:created']);
    await admin.query(`UPDATE outbox SET due_at = now()`);
    await app.get(OutboxRelay).sweep();
    // Once published, a repeat under the same msg id is dropped by JetStream.
    for (let i = 0; i < 2; i++) {
      await app
        .get(TenantTransactions)
        .run('acme', (m) => app.get(Outbox).add(m, 'acme', [fact('acme', '3')]));
    }
    await waitFor('removed from the outbox', async () => (await outboxRows()).length === 0, 5000);
    expect(await stored('mem.fact.upserted.acme')).toHaveLength(1);
  });

  it('publishes, once each, what writers committed but never published, with two relays sharing the work', async () => {
    const first = await startApp();
    await startApp();
    await commitWithoutPublishing(
      first,
      'acme',
      Array.from({ length: 300 }, (_, i) => fact('acme', `a${i}`)),
    );
    await commitWithoutPublishing(
      first,
      'globex',
      Array.from({ length: 300 }, (_, i) => fact('globex', `g${i}`)),
    );
    await waitFor('all published', async () => (await outboxRows()).length === 0, 15_000);
    for (const tenant of ['acme', 'globex']) {
      const events = await stored(`mem.fact.upserted.${tenant}`);
      expect(events).toHaveLength(300);
      expect(new Set(events.map((e) => e.msgId)).size).toBe(300);
    }
  });

  it('leaves a writer its grace before relays take its rows', async () => {
    const app = await startApp();
    await commitWithoutPublishing(app, 'acme', [fact('acme', '4')], 60_000);
    await app.get(OutboxRelay).sweep();
    expect(await outboxRows()).toEqual([
      expect.objectContaining({ msg_id: 'fact:acme:4:created', attempts: 0 }),
    ]);
    expect(await stored('mem.fact.upserted.acme')).toEqual([]);
    const metrics = await register.getSingleMetricAsString('engram_outbox_pending');
    expect(metrics).toMatch(/engram_outbox_pending\{[^}]*\} 1$/m);
  });

  it("reads an empty outbox's backlog every 15th sweep only, and every sweep while rows wait", async () => {
    const app = await startApp({ intervalMs: 60_000 });
    const relay = app.get(OutboxRelay);
    const backlog = jest.spyOn(app.get(OutboxStore), 'backlog');
    for (let i = 0; i < 16; i++) await relay.sweep();
    expect(backlog).toHaveBeenCalledTimes(2); // the first sweep's, then the 15th after it
    // A row in its writer's grace (nothing to claim): seen at the next 15th sweep, then read every sweep.
    await commitWithoutPublishing(app, 'acme', [fact('acme', 'waiting')], 60_000);
    for (let i = 0; i < 15; i++) await relay.sweep();
    expect(backlog).toHaveBeenCalledTimes(3);
    await relay.sweep();
    expect(backlog).toHaveBeenCalledTimes(4);
    expect(await register.getSingleMetricAsString('engram_outbox_pending')).toMatch(/ 1$/m);
  });

  it('retries an event JetStream will not take, then dead-letters it with the reason', async () => {
    const app = await startApp({ maxAttempts: 2 });
    const unrouted: OutboxEntry = {
      subject: 'mem.unrouted.acme',
      msgId: 'unrouted:1',
      payload: Buffer.from('{}'),
    };
    await commitWithoutPublishing(app, 'acme', [unrouted]);
    await waitFor('first attempt failed', async () => !!(await outboxRows())[0]?.last_error, 15_000);
    expect((await outboxRows())[0]).toMatchObject({ attempts: 1, last_error: expect.stringMatching(/\S/) });
    await waitFor('dead-lettered', async () => (await outboxRows()).length === 0, 15_000);
    const letter = await jsm.streams.getMessage(Streams.deadLetters.name, {
      last_by_subj: 'mem.deadletter.OUTBOX.outbox-relay',
    });
    const dead = decodeMessage(DeadLetterSchema, letter!.data, { strict: false });
    expect(dead).toMatchObject({ originalSubject: 'mem.unrouted.acme', cause: 'exhausted', deliveries: 2 });
    expect(dead.reason).toMatch(/not published after 2 attempts/);
    expect(new TextDecoder().decode(dead.originalData)).toBe('{}');
  });

  it('shows the app role only the rows of the tenant its transaction acts for', async () => {
    const app = await startApp({ intervalMs: 60_000 });
    await commitWithoutPublishing(app, 'acme', [fact('acme', '6')], 60_000);
    await commitWithoutPublishing(app, 'globex', [fact('globex', '7')], 60_000);
    const seen = await app
      .get(TenantTransactions)
      .run('acme', (m) => m.query(`SELECT msg_id FROM outbox`) as Promise<Array<{ msg_id: string }>>);
    expect(seen.map((r) => r.msg_id)).toEqual(['fact:acme:6:created']);
    expect(await app.get(DataSource).query(`SELECT msg_id FROM outbox`)).toEqual([]);
  });
});
