import type { JetStreamClient } from '@nats-io/jetstream';
import {
  Consumers,
  DeadLetterSchema,
  FactUpsertedSchema,
  Streams,
  Subjects,
  SummaryCreatedSchema,
} from '@engram/contracts';
import {
  eventsOn,
  startFakeOpenAiServer,
  startServiceUnderTest,
  waitFor,
  type FakeOpenAiServer,
  type ServiceUnderTest,
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
const TRUNCATED = {
  kind: 'status',
  status: 200,
  body: '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assist',
} as const;

describe('compactor with a language model that answers malformed JSON (fake OpenAI server, real Gerty, ingest, NATS, Postgres)', () => {
  let server: FakeOpenAiServer;
  let compactor: ServiceUnderTest;
  let js: JetStreamClient;

  const sql = <T extends object>(text: string, params: unknown[] = []) => compactor.sql<T>(text, params);
  const count = (text: string, params: unknown[] = []) => compactor.count(text, params);
  const chatRequests = () => server.requests.filter((r) => r.path === '/v1/chat/completions');

  const deadLetters = async () => {
    const stream = await js.streams.get(Streams.deadLetters.name).catch(() => undefined);
    if (!stream) return [];
    return (await eventsOn(js, Streams.deadLetters.name, Subjects.deadLetterWildcard, DeadLetterSchema)).map(
      (e) => e.event,
    );
  };

  /** One turn of the given messages; waits until ingest stored them. */
  async function publishTurn(
    session: string,
    turnId: string,
    messages: Array<{ role: string; content: string }>,
  ): Promise<string> {
    const turn = {
      turnId,
      sessionKey: session,
      occurredAt: '2026-03-01T09:00:00Z',
      messages: messages.map((m) => ({ ...m, author: m.role === 'user' ? 'Ada' : 'helper' })),
    };
    await js.publish(Subjects.turn('acme', 'helper'), JSON.stringify(turn), { msgID: turnId });
    await waitFor(
      `${turnId} stored`,
      async () =>
        (await count(`SELECT count(*) AS n FROM messages WHERE turn_id = $1`, [turnId])) === messages.length,
      10_000,
    );
    return (
      await sql<{ id: string }>(`SELECT id::text FROM conversations WHERE session_key = $1`, [session])
    )[0]!.id;
  }
  /** Only user messages: no assistant turn, so no fact extraction asks the model. */
  const userLines = (session: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      role: 'user',
      content: `${session} line ${i}: the coffee harvest report.`,
    }));

  beforeAll(async () => {
    server = await startFakeOpenAiServer();
    compactor = await startServiceUnderTest({
      label: 'compactor_llm',
      loadConfig: loadCompactorConfig,
      module: (config) => CompactorModule.register(config),
      processes: [
        'ingest',
        // Completions by the fake endpoint; embeddings stay with the built-in model.
        { name: 'gerty', env: { GERTY_OPENAI_BASE_URL: server.url, GERTY_OPENAI_CHAT_MODEL: 'fake-chat' } },
      ],
      // A 128k model: room for the v5 budgets (COMPACTOR_SUMMARY_TOKENS, 7k / 14k / 20k).
      config: {
        COMPACTOR_LEAF_MESSAGES: String(LEAF),
        COMPACTOR_MODEL_WINDOW_TOKENS: '131072',
        RETRY_MAX_DELAY_MS: '400',
      },
    });
    js = compactor.js;
  });

  afterAll(async () => {
    await compactor?.stop();
    await server?.close();
  });

  beforeEach(() => {
    server.requests.length = 0;
  });

  it('writes and announces a summary once when the first answer is malformed JSON (the consumer retries)', async () => {
    server.defaultContent = 'Ada asked about the coffee harvest report four times.';
    server.script(TRUNCATED);
    const id = await publishTurn('once', 'once-0', userLines('once', LEAF));
    await waitFor(
      'summary announced',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM summaries s WHERE s.conversation_id = $1 AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.msg_id = 'summary:' || s.tenant_id || ':' || s.id || ':created')`,
          [id],
        )) === 1,
      15_000,
    );
    // A moment for anything that would wrongly come after.
    await new Promise((r) => setTimeout(r, 500));
    expect(
      await sql(`SELECT depth, message_count, content, model FROM summaries WHERE conversation_id = $1`, [
        id,
      ]),
    ).toEqual([
      {
        depth: 0,
        message_count: LEAF,
        content: 'Ada asked about the coffee harvest report four times.',
        model: 'openai:fake-chat',
      },
    ]);
    // The malformed answer, then the one that was written.
    expect(chatRequests()).toHaveLength(2);
    // A leaf may take 7,000 tokens to think and write, half of them its length.
    const asked = chatRequests()[1]!.body;
    expect(asked.max_tokens).toBe(7000);
    expect((asked.messages as Array<{ content: string }>)[0]!.content).toContain(
      '- At most 14000 characters.',
    );
    const events = (
      await eventsOn(js, Streams.events.name, Subjects.summaryCreated('acme'), SummaryCreatedSchema)
    ).filter((e) => e.event.conversationId === id);
    expect(events).toHaveLength(1);
    expect(await deadLetters()).toEqual([]);
  });

  it("writes a turn's facts once when Gerty's answers are malformed: once (Gerty repairs it) and twice (the consumer retries)", async () => {
    const fact = (content: string) =>
      JSON.stringify({ facts: [{ content, category: 'preference', importance: 7, sourceMessageIds: [] }] });
    server.script(
      { kind: 'content', content: '{"facts": [{"content": "Ada drinks' },
      { kind: 'content', content: fact('Ada drinks her coffee black.') },
    );
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
    server.script(
      { kind: 'content', content: 'Sure! Here are the facts: {facts: [' },
      { kind: 'content', content: '```json\n{"facts": [' },
      { kind: 'content', content: fact('Ada lives in Lisbon.') },
    );
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
    const created = (
      await eventsOn(js, Streams.events.name, Subjects.factUpserted('acme'), FactUpsertedSchema)
    ).filter((e) => e.msgId.endsWith(':created'));
    expect(created).toHaveLength(2);
    expect(await deadLetters()).toEqual([]);
    // Below the leaf threshold: the summaries consumer asked nothing.
    expect(
      await count(`SELECT count(*) AS n FROM summaries WHERE conversation_id = ANY($1::bigint[])`, [
        [repaired, retried],
      ]),
    ).toBe(0);
  });

  it('dead-letters the event with the reason when every answer is malformed, and goes on with other work', async () => {
    const deliveries = Consumers.compactorSummaries.maxDeliver;
    server.script(...Array.from({ length: deliveries }, () => TRUNCATED));
    const id = await publishTurn('never', 'never-0', userLines('never', LEAF));
    await waitFor('dead letter', async () => (await deadLetters()).length === 1, 20_000);
    const [letter] = await deadLetters();
    expect(letter).toMatchObject({
      consumer: Consumers.compactorSummaries.durable,
      cause: 'exhausted',
      deliveries,
    });
    expect(letter!.reason).toMatch(new RegExp(`^failed ${deliveries} deliveries; last error: .*not JSON`));
    expect(chatRequests()).toHaveLength(deliveries);
    expect(await count(`SELECT count(*) AS n FROM summaries WHERE conversation_id = $1`, [id])).toBe(0);
    // The worker is alive: the next conversation is summarised (the endpoint answers properly again).
    const next = await publishTurn('after', 'after-0', userLines('after', LEAF));
    await waitFor(
      'next summary',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM summaries s WHERE s.conversation_id = $1 AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.msg_id = 'summary:' || s.tenant_id || ':' || s.id || ':created')`,
          [next],
        )) === 1,
      10_000,
    );
    expect(await deadLetters()).toHaveLength(1);
  });
});
