import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Client } from 'pg';
import type { DescMessage, MessageShape } from '@bufbuild/protobuf';
import { Consumers, DeadLetterSchema, decodeMessage, FactUpsertedSchema, Streams, Subjects, SummaryCreatedSchema } from '@engram/contracts';
import { listenOnJetStream } from '@engram/messaging';
import {
  createScratchDatabase,
  startFakeOpenAiServer,
  startNatsServer,
  startService,
  waitFor,
  type FakeOpenAiServer,
  type NatsServerHandle,
  type ScratchDatabase,
  type ServiceProcess,
} from '@engram/testing';
import { loadCompactorConfig } from '../compactor.config';
import { CompactorModule } from '../compactor.module';

/**
 * The compactor with Gerty configured for a language model (GERTY_OPENAI_*), played by a fake
 * OpenAI-compatible server that answers badly on cue. A summary is a text task: a reply whose body
 * is not JSON fails Gerty's call (no repair, no retry there), and the compactor's consumer retries
 * the conversation. Facts are structured: Gerty repairs a malformed answer once itself, and a
 * second malformed answer fails the call, which the consumer retries. Either way what is written
 * is written once and nothing is dead-lettered; an endpoint that never answers properly ends in a
 * dead letter that says why, and the worker goes on.
 */
const LEAF = 4;
/** A 200 whose JSON body is cut short. */
const TRUNCATED = { kind: 'status', status: 200, body: '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assist' } as const;

describe('compactor with a language model that answers malformed JSON (fake OpenAI server, real Gerty, ingest, NATS, Postgres)', () => {
  let nats: NatsServerHandle;
  let db: ScratchDatabase;
  let server: FakeOpenAiServer;
  let admin: Client;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let app: INestApplication;
  const services: ServiceProcess[] = [];

  const sql = async <T extends object>(text: string, params: unknown[] = []) => (await admin.query(text, params)).rows as T[];
  const count = async (text: string, params: unknown[] = []) => Number((await sql<{ n: string }>(text, params))[0]!.n);
  const chatRequests = () => server.requests.filter((r) => r.path === '/v1/chat/completions');

  /** Every event on a stream under a subject (an ordered consumer from the start). */
  async function eventsOn<S extends DescMessage>(stream: string, subject: string, schema: S): Promise<Array<{ event: MessageShape<S>; msgId: string }>> {
    const consumer = await js.consumers.get(stream, { filter_subjects: subject });
    const out: Array<{ event: MessageShape<S>; msgId: string }> = [];
    for await (const m of await consumer.fetch({ max_messages: 500, expires: 1000 })) {
      out.push({ event: decodeMessage(schema, m.data, { strict: false }), msgId: m.headers?.get('Nats-Msg-Id') ?? '' });
      if (m.info.pending === 0) break;
    }
    return out;
  }
  const deadLetters = async () => {
    const stream = await js.streams.get(Streams.deadLetters.name).catch(() => undefined);
    if (!stream) return [];
    return (await eventsOn(Streams.deadLetters.name, Subjects.deadLetterWildcard, DeadLetterSchema)).map((e) => e.event);
  };

  /** One turn of the given messages; waits until ingest stored them. */
  async function publishTurn(session: string, turnId: string, messages: Array<{ role: string; content: string }>): Promise<string> {
    const turn = { turnId, sessionKey: session, occurredAt: '2026-03-01T09:00:00Z', messages: messages.map((m) => ({ ...m, author: m.role === 'user' ? 'Ada' : 'helper' })) };
    await js.publish(Subjects.turn('acme', 'helper'), JSON.stringify(turn), { msgID: turnId });
    await waitFor(`${turnId} stored`, async () => (await count(`SELECT count(*) AS n FROM messages WHERE turn_id = $1`, [turnId])) === messages.length, 10_000);
    return (await sql<{ id: string }>(`SELECT id::text FROM conversations WHERE session_key = $1`, [session]))[0]!.id;
  }
  /** Only user messages: no assistant turn, so no fact extraction asks the model. */
  const userLines = (session: string, n: number) => Array.from({ length: n }, (_, i) => ({ role: 'user', content: `${session} line ${i}: the coffee harvest report.` }));

  beforeAll(async () => {
    [nats, db, server] = await Promise.all([startNatsServer(), createScratchDatabase('compactor_llm'), startFakeOpenAiServer()]);
    admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    nc = await connect({ servers: nats.url });
    js = jetstream(nc);
    const env = { NATS_URL: nats.url, DATABASE_URL: db.appUrl };
    // Completions by the fake endpoint; embeddings stay with the built-in model.
    services.push(
      await startService('ingest', env),
      await startService('gerty', { ...env, GERTY_OPENAI_BASE_URL: server.url, GERTY_OPENAI_CHAT_MODEL: 'fake-chat' }),
    );
    await Promise.all(services.map((s) => s.waitUntilReady()));
    const config = loadCompactorConfig({
      NATS_URL: nats.url,
      DATABASE_URL: db.appUrl,
      LOG_LEVEL: 'silent',
      COMPACTOR_LEAF_MESSAGES: String(LEAF),
      RETRY_BASE_DELAY_MS: '100',
      RETRY_MAX_DELAY_MS: '400',
    });
    app = await NestFactory.create(CompactorModule.register(config), { logger: false });
    await listenOnJetStream(app);
  });

  afterAll(async () => {
    await app?.close();
    for (const service of services) {
      service.kill();
      await service.exited;
    }
    await nc?.drain();
    await admin?.end();
    await server?.close();
    await nats?.stop();
    await db?.drop();
  });

  beforeEach(() => {
    server.requests.length = 0;
  });

  it('writes and announces a summary once when the first answer is malformed JSON (the consumer retries)', async () => {
    server.defaultContent = 'Ada asked about the coffee harvest report four times.';
    server.script(TRUNCATED);
    const id = await publishTurn('once', 'once-0', userLines('once', LEAF));
    await waitFor('summary announced', async () => (await count(`SELECT count(*) AS n FROM summaries WHERE conversation_id = $1 AND announced_at IS NOT NULL`, [id])) === 1, 15_000);
    // A moment for anything that would wrongly come after.
    await new Promise((r) => setTimeout(r, 500));
    expect(await sql(`SELECT depth, message_count, content, model FROM summaries WHERE conversation_id = $1`, [id])).toEqual([
      { depth: 0, message_count: LEAF, content: 'Ada asked about the coffee harvest report four times.', model: 'openai:fake-chat' },
    ]);
    // The malformed answer, then the one that was written.
    expect(chatRequests()).toHaveLength(2);
    const events = (await eventsOn(Streams.events.name, Subjects.summaryCreated('acme'), SummaryCreatedSchema)).filter((e) => e.event.conversationId === id);
    expect(events).toHaveLength(1);
    expect(await deadLetters()).toEqual([]);
  });

  it("writes a turn's facts once when Gerty's answers are malformed: once (Gerty repairs it) and twice (the consumer retries)", async () => {
    const fact = (content: string) => JSON.stringify({ facts: [{ content, category: 'preference', importance: 7, sourceMessageIds: [] }] });
    server.script({ kind: 'content', content: '{"facts": [{"content": "Ada drinks' }, { kind: 'content', content: fact('Ada drinks her coffee black.') });
    const repaired = await publishTurn('facts-1', 'facts-1-0', [
      { role: 'user', content: 'I always drink my coffee black.' },
      { role: 'assistant', content: 'Noted: black coffee.' },
    ]);
    const factsOf = (conversation: string) =>
      sql<{ content: string }>(
        `SELECT f.content FROM facts f WHERE f.tenant_id = 'acme' AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = $1 AND m.id = ANY(f.source_message_ids))`,
        [conversation],
      );
    // One turn at a time, so each takes its own answers from the script.
    await waitFor('repaired fact', async () => (await factsOf(repaired)).length === 1, 15_000);
    server.script({ kind: 'content', content: 'Sure! Here are the facts: {facts: [' }, { kind: 'content', content: '```json\n{"facts": [' }, { kind: 'content', content: fact('Ada lives in Lisbon.') });
    const retried = await publishTurn('facts-2', 'facts-2-0', [
      { role: 'user', content: 'I live in Lisbon.' },
      { role: 'assistant', content: 'Lisbon, noted.' },
    ]);
    await waitFor('retried fact', async () => (await factsOf(retried)).length === 1, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    expect((await factsOf(repaired)).map((f) => f.content)).toEqual(['Ada drinks her coffee black.']);
    expect((await factsOf(retried)).map((f) => f.content)).toEqual(['Ada lives in Lisbon.']);
    expect(await count(`SELECT count(*) AS n FROM facts WHERE tenant_id = 'acme'`)).toBe(2);
    // 2 (malformed, repaired) + 3 (malformed, repair malformed; redelivered: valid).
    expect(chatRequests()).toHaveLength(5);
    const created = (await eventsOn(Streams.events.name, Subjects.factUpserted('acme'), FactUpsertedSchema)).filter((e) => e.msgId.endsWith(':created'));
    expect(created).toHaveLength(2);
    expect(await deadLetters()).toEqual([]);
    // Below the leaf threshold: the summaries consumer asked nothing.
    expect(await count(`SELECT count(*) AS n FROM summaries WHERE conversation_id = ANY($1::bigint[])`, [[repaired, retried]])).toBe(0);
  });

  it('dead-letters the event with the reason when every answer is malformed, and goes on with other work', async () => {
    const deliveries = Consumers.summarizeMessages.maxDeliver;
    server.script(...Array.from({ length: deliveries }, () => TRUNCATED));
    const id = await publishTurn('never', 'never-0', userLines('never', LEAF));
    await waitFor('dead letter', async () => (await deadLetters()).length === 1, 20_000);
    const [letter] = await deadLetters();
    expect(letter).toMatchObject({ consumer: Consumers.summarizeMessages.durable, cause: 'exhausted', deliveries });
    expect(letter!.reason).toMatch(new RegExp(`^failed ${deliveries} deliveries; last error: .*not JSON`));
    expect(chatRequests()).toHaveLength(deliveries);
    expect(await count(`SELECT count(*) AS n FROM summaries WHERE conversation_id = $1`, [id])).toBe(0);
    // The worker is alive: the next conversation is summarised (the endpoint answers properly again).
    const next = await publishTurn('after', 'after-0', userLines('after', LEAF));
    await waitFor('next summary', async () => (await count(`SELECT count(*) AS n FROM summaries WHERE conversation_id = $1 AND announced_at IS NOT NULL`, [next])) === 1, 10_000);
    expect(await deadLetters()).toHaveLength(1);
  });
});
