import type { JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { Consumers, decodeMessage, Streams, Subjects, SummaryCreatedSchema } from '@engram/contracts';
import {
  eventConsumersSettled,
  eventsOn,
  startFakeOpenAiServer,
  startService,
  startTestEnvironment,
  waitFor,
  type FakeOpenAiServer,
  type ServiceProcess,
  type TestEnvironment,
} from '@engram/testing';

/**
 * The compactor as its own process, SIGKILLed while it summarises a conversation (every
 * summary takes 300 ms at a fake OpenAI-compatible endpoint behind the real Gerty, so the kill
 * lands after the first leaf is committed and before the tree is done). A new compactor gets
 * the unacknowledged events again once their ack wait passes, and finishes the tree: every
 * message under exactly one leaf, each summary written once and announced once. Then killed
 * after publishing its summaries and before marking them sent in the outbox (a failpoint): the
 * next compactor's relay publishes them again under the same msg ids and JetStream keeps one
 * of each.
 */
const LEAF = 4;
const FAN_OUT = 3;
const MESSAGES = 48;
const LEAVES = MESSAGES / LEAF; // 12
const BRANCHES = LEAVES / FAN_OUT; // 4
const ROOTS = Math.floor(BRANCHES / FAN_OUT); // 1
const SLOW_MS = 300;

describe('compactor: SIGKILLed mid-batch, then restarted (real Postgres, NATS, ingest, Gerty; slow fake model)', () => {
  let env: TestEnvironment;
  let server: FakeOpenAiServer;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let compactor: ServiceProcess | undefined;

  const sql = <T extends object>(text: string, params: unknown[] = []) => env.sql<T>(text, params);
  const count = (text: string, params: unknown[] = []) => env.count(text, params);
  const compactorEnv = () => ({
    ...env.env,
    COMPACTOR_LEAF_MESSAGES: String(LEAF),
    COMPACTOR_FAN_OUT: String(FAN_OUT),
    RETRY_BASE_DELAY_MS: '100',
    RETRY_MAX_DELAY_MS: '500',
  });

  const summaryEvents = () =>
    eventsOn(js, Streams.events.name, Subjects.summaryCreated('acme'), SummaryCreatedSchema);

  beforeAll(async () => {
    server = await startFakeOpenAiServer();
    env = await startTestEnvironment({
      label: 'compactor_crash',
      processes: [
        'ingest',
        {
          name: 'gerty',
          env: {
            GERTY_OPENAI_BASE_URL: server.url,
            GERTY_OPENAI_CHAT_MODEL: 'fake-chat',
            GERTY_MODEL_CONCURRENCY: '4',
          },
        },
      ],
    });
    ({ nc, js } = env);
  });

  afterAll(async () => {
    compactor?.kill();
    await compactor?.exited;
    await env?.stop();
    await server?.close();
  });

  it('finishes the tree after the kill: every message under one leaf, each summary written and announced once', async () => {
    // Every answer is slow (far more than the run needs, killed and restarted).
    server.defaultContent = 'Ada and the helper went over the coffee harvest report.';
    server.script(...Array.from({ length: 200 }, () => ({ kind: 'delay', ms: SLOW_MS }) as const));
    // The whole conversation is stored first (user messages only: no fact extraction asks the model).
    const start = Date.parse('2026-03-01T09:00:00Z');
    for (let t = 0; t < MESSAGES / 2; t++) {
      const turn = {
        turnId: `crash-${t}`,
        sessionKey: 'crash',
        occurredAt: new Date(start + t * 1000).toISOString(),
        messages: [0, 1].map((k) => ({
          role: 'user',
          author: 'Ada',
          content: `Turn ${t}.${k}: how is the coffee harvest report going?`,
        })),
      };
      await js.publish(Subjects.turn('acme', 'helper'), JSON.stringify(turn), { msgID: turn.turnId });
    }
    await waitFor(
      'conversation stored',
      async () => (await count(`SELECT count(*) AS n FROM messages`)) === MESSAGES,
      15_000,
    );
    const id = (
      await sql<{ id: string }>(`SELECT id::text FROM conversations WHERE session_key = 'crash'`)
    )[0]!.id;

    compactor = await startService('compactor', compactorEnv());
    await compactor.waitUntilReady();
    // The first leaf is committed: kill at once, mid-run.
    await waitFor(
      'first leaf',
      async () => (await count(`SELECT count(*) AS n FROM summaries`)) > 0,
      15_000,
      5,
    );
    compactor.kill('SIGKILL');
    expect(await compactor.exited).toBe('SIGKILL');
    const written = await count(`SELECT count(*) AS n FROM summaries`);
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(LEAVES);
    // Every summary committed is announced, or waits in the outbox to be (or both, killed in between).
    const waiting = await sql<{ msg_id: string }>(
      `SELECT msg_id FROM outbox WHERE subject = 'mem.summary.created.acme'`,
    );
    const announced = [...waiting.map((r) => r.msg_id), ...(await summaryEvents()).map((e) => e.msgId)];
    const summaries = await sql<{ id: string }>(`SELECT id::text FROM summaries`);
    expect([...new Set(announced)].sort()).toEqual(
      summaries.map((r) => `summary:acme:${r.id}:created`).sort(),
    );

    // A new compactor gets the events again after their ack wait and finishes.
    compactor = await startService('compactor', compactorEnv());
    await compactor.waitUntilReady();
    const total = LEAVES + BRANCHES + ROOTS;
    await waitFor(
      'tree finished and announced',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM summaries s WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.msg_id = 'summary:acme:' || s.id || ':created')`,
        )) === total,
      Consumers.compactorSummaries.ackWaitMs + 10_000,
      250,
    );
    expect(await count(`SELECT count(*) AS n FROM summaries`)).toBe(total);
    // Every redelivered event settled; nothing more comes of them.
    await eventConsumersSettled(nc, [Consumers.compactorSummaries.durable], 10_000);

    const levels = await sql<{ depth: number; n: string }>(
      `SELECT depth, count(*) AS n FROM summaries WHERE conversation_id = $1 GROUP BY depth ORDER BY depth`,
      [id],
    );
    expect(levels.map((l) => [l.depth, Number(l.n)])).toEqual([
      [0, LEAVES],
      [1, BRANCHES],
      [2, ROOTS],
    ]);
    // Every message under exactly one leaf, leaves in transcript order, each leaf full.
    const transcript = await sql<{ id: string }>(
      `SELECT id::text FROM messages WHERE conversation_id = $1 ORDER BY created_at, stream_seq, position, id`,
      [id],
    );
    const covered = await sql<{ id: string }>(
      `SELECT ss.source_id::text AS id FROM summaries s JOIN summary_sources ss ON ss.summary_id = s.id AND ss.source_kind = 'message'
        WHERE s.conversation_id = $1 AND s.depth = 0 ORDER BY s.earliest_at, s.id, ss.ordinal`,
      [id],
    );
    expect(transcript).toHaveLength(MESSAGES);
    expect(covered.map((r) => r.id)).toEqual(transcript.map((r) => r.id));
    expect(
      await count(`SELECT count(*) AS n FROM summaries WHERE depth = 0 AND message_count <> $1`, [LEAF]),
    ).toBe(0);
    // Each of the 12 leaves under one branch, 3 of the 4 branches under the root; no source twice.
    expect(
      await count(`SELECT count(DISTINCT source_id) AS n FROM summary_sources WHERE source_kind = 'summary'`),
    ).toBe(LEAVES + ROOTS * FAN_OUT);
    expect(await count(`SELECT count(*) AS n FROM summary_sources WHERE source_kind = 'summary'`)).toBe(
      LEAVES + ROOTS * FAN_OUT,
    );

    // Announced once each, under its own msg id.
    const events = await summaryEvents();
    const rows = await sql<{ id: string }>(`SELECT id::text FROM summaries WHERE conversation_id = $1`, [id]);
    expect(events.map((e) => e.event.summaryId).sort()).toEqual(rows.map((r) => r.id).sort());
    for (const { event, msgId } of events) expect(msgId).toBe(`summary:acme:${event.summaryId}:created`);
    // The second compactor's output never mentions a dead letter.
    expect(compactor.output()).not.toMatch(/dead-lettered/);
  }, 60_000);

  it('announces each summary once when a compactor is killed between publishing and marking them sent', async () => {
    // Stopped while the conversation is stored, so one batch carries all of it.
    compactor!.kill('SIGTERM');
    await compactor!.exited;
    for (let t = 0; t < 16; t++) {
      const turn = {
        turnId: `announce-${t}`,
        sessionKey: 'announce',
        occurredAt: new Date(Date.parse('2026-03-02T09:00:00Z') + t * 1000).toISOString(),
        messages: [0, 1].map((k) => ({
          role: 'user',
          author: 'Ada',
          content: `Turn ${t}.${k}: and the shipping schedule?`,
        })),
      };
      await js.publish(Subjects.turn('acme', 'helper'), JSON.stringify(turn), { msgID: turn.turnId });
    }
    await waitFor(
      'conversation stored',
      async () => (await count(`SELECT count(*) AS n FROM messages`)) === MESSAGES + 32,
      15_000,
    );
    const id = (
      await sql<{ id: string }>(`SELECT id::text FROM conversations WHERE session_key = 'announce'`)
    )[0]!.id;
    const total = 8 + 2; // 8 leaves, 2 branches of 3 (2 leaves wait), no root
    const seen: string[] = [];
    const sub = nc.subscribe(Subjects.summaryCreated('acme'), {
      callback: (_, m) => {
        const event = decodeMessage(SummaryCreatedSchema, m.data, { strict: false });
        if (event.conversationId === id) seen.push(event.summaryId);
      },
    });
    const unsent = () =>
      count(
        `SELECT count(*) AS n FROM outbox o JOIN summaries s ON o.msg_id = 'summary:acme:' || s.id || ':created'
          WHERE s.conversation_id = $1`,
        [id],
      );

    // Dies right after JetStream stored its first summary's event, before marking it sent.
    compactor = await startService('compactor', {
      ...compactorEnv(),
      ENGRAM_FAILPOINTS: 'outbox.after-publish:mem.summary.created',
    });
    expect(await compactor.exited).toBe('SIGKILL');
    expect(seen).toHaveLength(1);
    expect(await count(`SELECT count(*) AS n FROM summaries WHERE conversation_id = $1`, [id])).toBe(1);
    expect(await unsent()).toBe(1);

    // The next compactor finishes the tree; its relay publishes the first summary again. A run
    // writes at most four leaves, so the rest waits for the killed batch's redelivery (its ack wait).
    compactor = await startService('compactor', compactorEnv());
    await compactor.waitUntilReady();
    await waitFor(
      'all sent',
      async () => (await unsent()) === 0 && seen.length > total,
      Consumers.compactorSummaries.ackWaitMs + 20_000,
      100,
    );
    await eventConsumersSettled(
      nc,
      [Consumers.compactorSummaries.durable],
      Consumers.compactorSummaries.ackWaitMs + 10_000,
    );
    sub.unsubscribe();
    expect(await count(`SELECT count(*) AS n FROM summaries WHERE conversation_id = $1`, [id])).toBe(total);
    // Published twice (a plain subscriber sees the first summary's both times), stored once in the stream.
    const ids = [...new Set(seen)].sort();
    expect(ids).toHaveLength(total);
    expect(seen).toHaveLength(total + 1);
    const stored = (await summaryEvents()).filter((e) => e.event.conversationId === id);
    expect(stored.map((e) => e.event.summaryId).sort()).toEqual(ids);
    expect(new Set(stored.map((e) => e.msgId)).size).toBe(total);
  }, 120_000);
});
