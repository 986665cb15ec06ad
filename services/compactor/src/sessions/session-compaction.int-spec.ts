import type { INestApplication } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { CompactionCreatedSchema, Consumers, DeadLetterSchema, Streams, Subjects } from '@engram/contracts';
import { DEFAULT_SESSION_COMPACTION_POLICY } from '@engram/memory-core';
import { DataSource, TenantTransactions } from '@engram/store';
import {
  eventConsumersSettled,
  eventsOn,
  startServiceUnderTest,
  waitFor,
  type ServiceUnderTest,
} from '@engram/testing';
import { loadCompactorConfig } from '../compactor.config';
import { CompactorModule } from '../compactor.module';
import { CompactorGertyGateway } from '../gateway/compactor-gerty.gateway';
import { Outbox, OutboxRelay } from '@engram/messaging';
import { ExtractFactsUseCase } from '../facts/extract-facts.use-case';
import { SUMMARY_TREE_POLICY } from '../summaries/summary-tree.policy';
import { CompactSessionUseCase } from './compact-session.use-case';
import { SessionCompactionRepository } from './session-compaction.repository';

/**
 * Session compaction with the real ingest and Gerty (built-in model) as processes and three
 * compactor replicas in this process on one consumer. A conversation of an unknown model
 * (8,192-token window) passes 75 % (6,144 tokens): its oldest messages are compacted once,
 * kept, and announced once; a second step's summary is made from the first's.
 */
const PLACES = [
  'Lisbon',
  'Porto',
  'Berlin',
  'Kyoto',
  'Oslo',
  'Quito',
  'Dakar',
  'Hanoi',
  'Lima',
  'Perth',
  'Cairo',
  'Tunis',
];
/** ~300 characters (~75 tokens) a message: a turn is ~150 tokens. */
const PAD =
  ' Could you remind me what the weather was like there and whether the old harbour district is still worth a long visit?';

describe('compactor: session compaction (real Postgres, NATS, ingest and Gerty; 3 replicas)', () => {
  let compactor: ServiceUnderTest;
  let js: JetStreamClient;
  let replicas: INestApplication[];
  const sql = <T extends object>(text: string, params: unknown[] = []) => compactor.sql<T>(text, params);
  const count = (text: string, params: unknown[] = []) => compactor.count(text, params);

  /** Turns `from`–`to` (~150 tokens each); those below `unansweredBelow` are two user messages, no answer. */
  async function publishTurns(
    tenant: string,
    session: string,
    from: number,
    to: number,
    unansweredBelow = 0,
  ): Promise<void> {
    const start = Date.parse('2026-03-01T09:00:00Z');
    const acks = [];
    for (let t = from; t < to; t++) {
      const user =
        `I visited ${PLACES[t % PLACES.length]} in ${1990 + t} with my cousin number ${t}.${PAD}${PAD}`.slice(
          0,
          300,
        );
      const assistant =
        `That trip to ${PLACES[t % PLACES.length]} sounds memorable; the harbour district there is lovely in spring and the food is famous.`.padEnd(
          300,
          ' .',
        );
      const turn = {
        turnId: `${session}-${t}`,
        sessionKey: session,
        occurredAt: new Date(start + t * 60_000).toISOString(),
        messages: [
          { role: 'user', author: 'Ada', content: user },
          t < unansweredBelow
            ? {
                role: 'user',
                author: 'Ada',
                content: `Also, my neighbour number ${t} came along.`.padEnd(300, ' .'),
              }
            : { role: 'assistant', author: 'helper', content: assistant },
        ],
      };
      acks.push(
        js.publish(Subjects.turn(tenant, 'helper'), JSON.stringify(turn), {
          msgID: `${tenant}-${session}-${t}`,
        }),
      );
    }
    await Promise.all(acks);
  }

  async function conversationId(tenant: string, session: string, messages: number): Promise<string> {
    await waitFor(
      `${messages} messages of ${session} stored`,
      async () =>
        (await count(
          `SELECT count(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.tenant_id = $1 AND c.session_key = $2`,
          [tenant, session],
        )) === messages,
      20_000,
    );
    return (
      await sql<{ id: string }>(
        `SELECT id::text FROM conversations WHERE tenant_id = $1 AND session_key = $2`,
        [tenant, session],
      )
    )[0]!.id;
  }

  const compactions = (id: string) =>
    sql<{
      id: string;
      content: string;
      first_message_id: string;
      last_message_id: string;
      message_count: number;
      compacted_tokens: number;
      token_estimate: number;
      earliest_at: Date;
      latest_at: Date;
      model: string;
      fact_ids: string[];
      cut_short: boolean;
    }>(
      `SELECT id::text, content, first_message_id::text, last_message_id::text, message_count, compacted_tokens, token_estimate,
               earliest_at, latest_at, model, fact_ids::text[] AS fact_ids, cut_short
          FROM compactions WHERE conversation_id = $1 ORDER BY id`,
      [id],
    );

  const transcript = (id: string) =>
    sql<{ id: string; content: string; compacted: boolean; token_estimate: number; created_at: Date }>(
      `SELECT id::text, content, compacted_at IS NOT NULL AS compacted, token_estimate, created_at
         FROM messages WHERE conversation_id = $1 ORDER BY created_at, stream_seq, position, id`,
      [id],
    );

  beforeAll(async () => {
    compactor = await startServiceUnderTest({
      label: 'sessions',
      loadConfig: loadCompactorConfig,
      module: (config) => CompactorModule.register(config),
      processes: ['ingest', 'gerty'],
      replicas: 3,
      // Small batches, so the replicas each get a share of the conversation's events.
      config: { CONSUMER_BATCH_SIZE: '8' },
      seed: async (admin) => {
        await admin.query(`INSERT INTO tenants (tenant_id, memory_enabled) VALUES ('quiet', false)`);
      },
    });
    ({ js, apps: replicas } = compactor);
  });

  afterAll(() => compactor?.stop());

  it('compacts the oldest messages once past 75 % of the window, keeps them, extracts their facts, announces once; the next step builds on it', async () => {
    const summarizeCalls = replicas.map((app) =>
      jest.spyOn(app.get(CompactorGertyGateway), 'summarizeSession'),
    );
    // ~6,750 tokens > 6,144; the first 10 turns unanswered: no turn's extraction reads their
    // first 7 messages (the first answer, message 22, reads the 15 up to it).
    await publishTurns('acme', 'long', 0, 45, 10);
    const id = await conversationId('acme', 'long', 90);
    await waitFor(
      'first compaction announced',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM compactions c WHERE c.conversation_id = $1 AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.msg_id = 'compaction:' || c.tenant_id || ':' || c.id || ':created')`,
          [id],
        )) >= 1,
      20_000,
      100,
    );

    const [first] = await compactions(id);
    let messages = await transcript(id);
    // The oldest messages, in order, and every one still stored with its content.
    const compacted = messages.filter((m) => m.compacted);
    expect(messages).toHaveLength(90);
    expect(messages.every((m) => m.content.length > 0)).toBe(true);
    expect(compacted.map((m) => m.id)).toEqual(messages.slice(0, compacted.length).map((m) => m.id));
    expect(first).toMatchObject({
      first_message_id: compacted[0]!.id,
      last_message_id: compacted.at(-1)!.id,
      message_count: compacted.length,
    });
    expect(first!.compacted_tokens).toBe(compacted.reduce((n, m) => n + m.token_estimate, 0));
    expect(first!.earliest_at).toEqual(compacted[0]!.created_at);
    expect(first!.latest_at).toEqual(compacted.at(-1)!.created_at);
    expect(first!.content.length).toBeGreaterThan(0);
    expect(first!.model).toBeTruthy();
    // What is left is at most ~40 % of 8,192 tokens, and never fewer than the newest 10.
    const rest = messages.filter((m) => !m.compacted);
    expect(rest.length).toBeGreaterThanOrEqual(10);
    expect(rest.reduce((n, m) => n + m.token_estimate, 0)).toBeLessThanOrEqual(Math.ceil(8192 * 0.4));

    // Facts from the compacted messages, sourced among them.
    expect(first!.fact_ids.length).toBeGreaterThan(0);
    const sourced = await count(
      `SELECT count(*) AS n FROM facts WHERE id = ANY($1::bigint[]) AND source_message_ids && $2::bigint[]`,
      [first!.fact_ids, compacted.map((m) => m.id)],
    );
    expect(sourced).toBe(first!.fact_ids.length);
    // The step asked only about the messages no turn reads; the others' facts are their turns'.
    const unread = messages.slice(0, 7).map((m) => m.id);
    const stepFacts = await sql<{ sources: string[] }>(
      `SELECT source_message_ids::text[] AS sources FROM facts WHERE origin_key LIKE $1`,
      [`%:compaction-${id}-%`],
    );
    expect(stepFacts.length).toBeGreaterThan(0);
    expect(stepFacts.filter((f) => !f.sources.some((s) => unread.includes(s)))).toEqual([]);

    // Redelivery and replicas: every replica runs the conversation again, at once, twice: nothing new.
    for (let round = 0; round < 2; round++) {
      await Promise.all(
        replicas.map((app) =>
          app.get(CompactSessionUseCase).compact({ tenantId: 'acme', conversationId: id }),
        ),
      );
    }
    expect(await compactions(id)).toHaveLength(1);

    // The next step: its summary is made from the first's content and the new messages, and its span starts where the first's did.
    await publishTurns('acme', 'long', 45, 75);
    await conversationId('acme', 'long', 150);
    await waitFor(
      'second compaction announced',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM compactions c WHERE c.conversation_id = $1 AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.msg_id = 'compaction:' || c.tenant_id || ':' || c.id || ':created')`,
          [id],
        )) >= 2,
      20_000,
      100,
    );
    const [, second] = await compactions(id);
    expect(second!.earliest_at).toEqual(first!.earliest_at);
    expect(BigInt(second!.first_message_id)).toBeGreaterThan(BigInt(first!.last_message_id));
    const calls = summarizeCalls.flatMap((spy) => spy.mock.calls.map(([, input]) => input));
    const folded = calls.find((input) => input.lines[0]?.id === `compaction:${first!.id}`);
    expect(folded?.lines[0]?.text).toBe(first!.content);
    expect(folded?.preamble.from).toBe(first!.earliest_at.toISOString());

    // Each message compacted by exactly one step, in order, the newest 10 never.
    messages = await transcript(id);
    const byStep = await sql<{ id: string; step: string }>(
      `SELECT m.id::text, c.id::text AS step FROM messages m
         JOIN compactions c ON c.conversation_id = m.conversation_id
          AND (m.created_at, m.id) >= (SELECT created_at, id FROM messages WHERE id = c.first_message_id)
          AND (m.created_at, m.id) <= (SELECT created_at, id FROM messages WHERE id = c.last_message_id)
        WHERE m.conversation_id = $1`,
      [id],
    );
    const stepsOf = new Map<string, number>();
    for (const r of byStep) stepsOf.set(r.id, (stepsOf.get(r.id) ?? 0) + 1);
    for (const m of messages) expect([m.id, stepsOf.get(m.id) ?? 0]).toEqual([m.id, m.compacted ? 1 : 0]);
    expect(messages.slice(-10).every((m) => !m.compacted)).toBe(true);

    // Announced once per step, under the step's msg id.
    const events = await eventsOn(
      js,
      Streams.events.name,
      Subjects.compactionCreated('acme'),
      CompactionCreatedSchema,
    );
    const steps = await compactions(id);
    expect(events.map((e) => e.msgId).sort()).toEqual(
      steps.map((s) => `compaction:acme:${s.id}:created`).sort(),
    );
    expect(
      events.map((e) => [
        e.event.compactionId,
        e.event.firstMessageId,
        e.event.lastMessageId,
        e.event.messageCount,
      ]),
    ).toEqual(steps.map((s) => [s.id, s.first_message_id, s.last_message_id, s.message_count]));
  });

  it('refuses a second record of a step and a message compacted twice; a crash after the commit announces the step once', async () => {
    const id = (
      await sql<{ id: string }>(
        `SELECT id::text FROM conversations WHERE tenant_id = 'acme' AND session_key = 'long'`,
      )
    )[0]!.id;
    const [first] = await compactions(id);
    const repository = replicas[0]!.get(SessionCompactionRepository);
    const transactions = replicas[0]!.get(TenantTransactions);
    const again = (messageIds: string[]) =>
      transactions.run('acme', (m) =>
        repository.insert(m, {
          tenantId: 'acme',
          conversationId: id,
          agent: 'helper',
          content: 'again',
          tokenEstimate: 2,
          model: 'm',
          messageIds,
          compactedTokens: 1,
          cutShort: false,
          factIds: [],
          previousId: null,
        }),
      );
    await expect(again([first!.first_message_id, first!.last_message_id])).rejects.toMatchObject({
      code: '23505',
    });
    await expect(again([first!.first_message_id])).rejects.toThrow(/compacted by another writer/);
    expect(await compactions(id)).toHaveLength(2);

    // A step commits, then its process dies before publishing it (no after-commit publish):
    // a relay's sweep publishes it once the writer's grace passed, once.
    const lost = replicas.map((app) =>
      jest.spyOn(app.get(OutboxRelay), 'publishCommitted').mockResolvedValue(undefined),
    );
    await publishTurns('acme', 'crash', 0, 45);
    const crashId = await conversationId('acme', 'crash', 90);
    await waitFor(
      'the step committed',
      async () =>
        (await count(`SELECT count(*) AS n FROM compactions WHERE conversation_id = $1`, [crashId])) === 1,
      20_000,
      100,
    );
    // Its writer never published it (mock.calls is gone once restored).
    expect(lost.some((spy) => spy.mock.calls.length > 0)).toBe(true);
    for (const spy of lost) spy.mockRestore();
    await waitFor(
      'the step announced after the crash',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM compactions c WHERE c.conversation_id = $1 AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.msg_id = 'compaction:' || c.tenant_id || ':' || c.id || ':created')`,
          [crashId],
        )) === 1,
      20_000,
      100,
    );
    const [step] = await compactions(crashId);
    const events = (
      await eventsOn(js, Streams.events.name, Subjects.compactionCreated('acme'), CompactionCreatedSchema)
    ).filter((e) => e.event.conversationId === crashId);
    expect(events.map((e) => e.msgId)).toEqual([`compaction:acme:${step!.id}:created`]);
  });

  it('goes down to the keep share in steps of at most COMPACTOR_SESSION_STEP_MESSAGES, each run continuing a step cut short', async () => {
    // 36 turns (~5,400 tokens) stay under the consumers' 75 %: only the runs below compact them.
    await publishTurns('acme', 'steps', 0, 36);
    const id = await conversationId('acme', 'steps', 72);
    await eventConsumersSettled(compactor.nc, [Consumers.compactorSessions.durable], 20_000);
    expect(await compactions(id)).toEqual([]);

    // Due at 50 %, down to 40 % (3,277 tokens), at most 12 messages a step.
    const app = replicas[0]!;
    const stepwise = new CompactSessionUseCase(
      app.get(DataSource),
      app.get(TenantTransactions),
      app.get(SessionCompactionRepository),
      app.get(ExtractFactsUseCase),
      app.get(CompactorGertyGateway),
      app.get(Outbox),
      { ...DEFAULT_SESSION_COMPACTION_POLICY, triggerShare: 0.5, stepMessages: 12 },
      app.get(SUMMARY_TREE_POLICY),
    );
    const run = () => stepwise.compact({ tenantId: 'acme', conversationId: id });
    for (let i = 0; i < 5; i++) await run(); // the way down takes 3 steps; the runs after find nothing due

    const steps = await compactions(id);
    expect(steps.map((s) => [s.message_count, s.cut_short])).toEqual([
      [12, true], // under 50 % after the first step, but cut short: the next run goes on
      [12, true],
      [expect.any(Number), false],
    ]);
    expect(steps[2]!.message_count).toBeLessThanOrEqual(12);
    const rest = (await transcript(id)).filter((m) => !m.compacted);
    expect(rest.reduce((n, m) => n + m.token_estimate, 0)).toBeLessThanOrEqual(Math.ceil(8192 * 0.4));
    // A chain: each step's summary folds in the one before.
    expect(BigInt(steps[1]!.first_message_id)).toBeGreaterThan(BigInt(steps[0]!.last_message_id));
    expect(steps[2]!.earliest_at).toEqual(steps[0]!.earliest_at);
  });

  it('compacts a memory-off tenant without deriving facts, and dead-letters an event naming no conversation row', async () => {
    await publishTurns('quiet', 'q', 0, 45);
    const id = await conversationId('quiet', 'q', 90);
    await waitFor(
      'compaction of the quiet tenant',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM compactions c WHERE c.conversation_id = $1 AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.msg_id = 'compaction:' || c.tenant_id || ':' || c.id || ':created')`,
          [id],
        )) === 1,
      20_000,
      100,
    );
    const [step] = await compactions(id);
    expect(step!.fact_ids).toEqual([]);
    expect(await count(`SELECT count(*) AS n FROM facts WHERE tenant_id = 'quiet'`)).toBe(0);

    await js.publish(
      Subjects.messageStored('acme'),
      JSON.stringify({
        tenantId: 'acme',
        agent: 'helper',
        conversationId: 'not-a-row',
        turnId: 'bad',
        messages: [],
        memoryEnabled: true,
      }),
      { msgID: 'bad-conversation' },
    );
    let reasons: string[] = [];
    await waitFor(
      'dead letter',
      async () => {
        const letters = await eventsOn(
          js,
          Streams.deadLetters.name,
          Subjects.deadLetter(Streams.events.name, 'compactor-sessions'),
          DeadLetterSchema,
        );
        reasons = letters.map((l) => l.event.reason);
        return reasons.length > 0;
      },
      10_000,
      200,
    );
    expect(reasons).toEqual([expect.stringContaining('conversation_id is not a row id')]);
  });
});
