import { AckPolicy, type JetStreamClient } from '@nats-io/jetstream';
import { Client } from 'pg';
import { loadConfig } from '@engram/config';
import { Consumers, Rpcs, Subjects } from '@engram/contracts';
import { RpcClient, RpcError } from '@engram/messaging';
import { startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

const NO_FACTS = {
  preference: 0n,
  fact: 0n,
  event: 0n,
  relationship: 0n,
  decision: 0n,
  correction: 0n,
  task: 0n,
  general: 0n,
};

describe('memory_stats (real Postgres and NATS)', () => {
  let retrieval: ServiceUnderTest;
  let rpc: RpcClient;
  let admin: Client;
  let js: JetStreamClient;
  const conversation: Record<string, string> = {};
  const dims = loadConfig(['EMBEDDING_DIMENSIONS']).EMBEDDING_DIMENSIONS;

  const stats = (request: Parameters<RpcClient['call']>[1], tenantId = 'acme') =>
    rpc.call(Rpcs.statsGet, request, { tenantId });

  /** `count` messages in a conversation; returns their ids in order. */
  async function addMessages(
    tenant: string,
    conversationId: string,
    agent: string,
    count: number,
  ): Promise<string[]> {
    const rows = await admin.query<{ id: string }>(
      `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
       SELECT $1, $2, $3, 't' || i, 0, i, 'user', 'message ' || i, 2, now() - (i || ' seconds')::interval
         FROM generate_series(1, $4::int) AS i
       RETURNING id`,
      [tenant, conversationId, agent, count],
    );
    return rows.rows.map((r) => String(r.id)).sort((a, b) => Number(a) - Number(b));
  }

  async function embed(tenant: string, kind: string, ids: readonly string[]): Promise<void> {
    await admin.query(
      `INSERT INTO embeddings (item_kind, item_id, tenant_id, model, embedding)
       SELECT $1, id, $2, 'test-model', array_fill(0.1::real, ARRAY[$4::int])::halfvec FROM unnest($3::bigint[]) AS id`,
      [kind, tenant, ids, dims],
    );
  }

  /** A summary of `depth` over messages (depth 0) or child summaries; returns its id. */
  async function summarise(
    tenant: string,
    conversationId: string,
    agent: string,
    depth: number,
    sources: readonly string[],
  ): Promise<string> {
    const rows = await admin.query<{ id: string }>(
      `INSERT INTO summaries (tenant_id, conversation_id, agent, depth, content, earliest_at, latest_at, message_count, token_estimate, model)
       VALUES ($1, $2, $3, $4, 'summary', now(), now(), $5, 10, 'test') RETURNING id`,
      [tenant, conversationId, agent, depth, sources.length],
    );
    const id = String(rows.rows[0]!.id);
    await admin.query(
      `INSERT INTO summary_sources (tenant_id, summary_id, source_kind, source_id, ordinal)
       SELECT $1, $2, $3, s.id, s.n FROM unnest($4::bigint[]) WITH ORDINALITY AS s(id, n)`,
      [tenant, id, depth === 0 ? 'message' : 'summary', sources],
    );
    // As the compactor writes a leaf: its messages are stamped in the same breath.
    if (depth === 0)
      await admin.query(`UPDATE messages SET summarised_at = now() WHERE id = ANY($1::bigint[])`, [sources]);
    return id;
  }

  async function addFact(
    tenant: string,
    agent: string,
    category: string,
    options: { closed?: boolean; expired?: boolean } = {},
  ) {
    await admin.query(
      `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key, valid_from, valid_to, expires_at)
       VALUES ($1, $2, 'fact ' || $3, $3, 'sticky', 5, 'saved', gen_random_uuid()::text, now() - interval '2 days',
               CASE WHEN $4 THEN now() END, CASE WHEN $5 THEN now() - interval '1 day' END)`,
      [tenant, agent, category, options.closed ?? false, options.expired ?? false],
    );
  }

  /**
   * acme: helper has chat-1 (10 messages: 6 in leaf 1, 2 in leaf 2, both under a branch; 6
   * embedded) and chat-2 (5 messages, none summarised); other has chat-3 (4 messages, 2 in a
   * leaf, 2 embedded). globex has 3 messages, all embedded and summarised, and facts of its own.
   */
  async function seed() {
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex'), ('empty')`);
    const rows = await admin.query<{ id: string; session_key: string; tenant_id: string }>(
      `INSERT INTO conversations (tenant_id, agent, session_key) VALUES
         ('acme', 'helper', 'chat-1'), ('acme', 'helper', 'chat-2'), ('acme', 'other', 'chat-3'), ('globex', 'helper', 'g-1')
       RETURNING id, session_key`,
    );
    for (const r of rows.rows) conversation[r.session_key] = String(r.id);
    const c1 = await addMessages('acme', conversation['chat-1']!, 'helper', 10);
    await addMessages('acme', conversation['chat-2']!, 'helper', 5);
    const c3 = await addMessages('acme', conversation['chat-3']!, 'other', 4);
    const g1 = await addMessages('globex', conversation['g-1']!, 'helper', 3);

    await embed('acme', 'message', c1.slice(0, 6));
    await embed('acme', 'message', c3.slice(0, 2));
    await embed('globex', 'message', g1);

    const leaf1 = await summarise('acme', conversation['chat-1']!, 'helper', 0, c1.slice(0, 6));
    const leaf2 = await summarise('acme', conversation['chat-1']!, 'helper', 0, c1.slice(6, 8));
    const branch = await summarise('acme', conversation['chat-1']!, 'helper', 1, [leaf1, leaf2]);
    await embed('acme', 'summary', [leaf1, leaf2, branch]); // vectors of summaries are not messages_embedded
    await summarise('acme', conversation['chat-3']!, 'other', 0, c3.slice(0, 2));
    const gLeaf = await summarise('globex', conversation['g-1']!, 'helper', 0, g1);
    const gBranch = await summarise('globex', conversation['g-1']!, 'helper', 1, [gLeaf]);
    await summarise('globex', conversation['g-1']!, 'helper', 2, [gBranch]);

    await addFact('acme', 'helper', 'preference');
    await addFact('acme', 'helper', 'preference', { closed: true });
    await addFact('acme', 'helper', 'fact');
    await addFact('acme', 'helper', 'general', { expired: true });
    await addFact('acme', 'other', 'task');
    await addFact('acme', 'other', 'task', { closed: true });
    for (let i = 0; i < 3; i++) await addFact('globex', 'helper', 'correction');
  }

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'stats',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      seed: async (seeding) => {
        admin = seeding;
        await seed();
      },
    });
    ({ admin, rpc, js } = retrieval);
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  it('counts the tenant’s messages, vectors, summaries and facts in force as seeded', async () => {
    const answer = await stats({});
    expect(answer).toMatchObject({
      messages: 19n,
      messagesEmbedded: 8n,
      conversationsCompacted: 2n,
      summaryTreeDepth: 2, // leaves and a branch: two levels
      // In force only, as search serves them: the closed and the expired ones are kept, not counted.
      factsByCategory: { ...NO_FACTS, preference: 1n, fact: 1n, task: 1n },
    });
    expect(answer.embeddingCoverage).toBeCloseTo(8 / 19, 10);
    expect(answer.unsummarisedByConversation).toEqual({
      [conversation['chat-2']!]: 5n,
      [conversation['chat-1']!]: 2n,
      [conversation['chat-3']!]: 2n,
    });
  });

  it('narrows everything of the store to one agent', async () => {
    const helper = await stats({ agent: 'helper' });
    expect(helper).toMatchObject({
      messages: 15n,
      messagesEmbedded: 6n,
      unsummarisedByConversation: { [conversation['chat-1']!]: 2n, [conversation['chat-2']!]: 5n },
      conversationsCompacted: 1n,
      summaryTreeDepth: 2,
      factsByCategory: { ...NO_FACTS, preference: 1n, fact: 1n },
    });
    expect(helper.embeddingCoverage).toBeCloseTo(6 / 15, 10);
    const other = await stats({ agent: 'other' });
    expect(other).toMatchObject({
      messages: 4n,
      messagesEmbedded: 2n,
      embeddingCoverage: 0.5,
      unsummarisedByConversation: { [conversation['chat-3']!]: 2n },
      conversationsCompacted: 1n,
      summaryTreeDepth: 1,
      factsByCategory: { ...NO_FACTS, task: 1n },
    });
    const nobody = await stats({ agent: 'nobody' });
    expect(nobody).toMatchObject({
      messages: 0n,
      messagesEmbedded: 0n,
      embeddingCoverage: 1,
      conversationsCompacted: 0n,
      summaryTreeDepth: 0,
    });
    expect(nobody.unsummarisedByConversation).toEqual({});
  });

  it('shows each tenant only its own memory', async () => {
    expect(await stats({}, 'globex')).toMatchObject({
      messages: 3n,
      messagesEmbedded: 3n,
      embeddingCoverage: 1,
      unsummarisedByConversation: {},
      conversationsCompacted: 1n,
      summaryTreeDepth: 3,
      factsByCategory: { ...NO_FACTS, correction: 3n },
    });
    expect(await stats({}, 'empty')).toMatchObject({
      messages: 0n,
      messagesEmbedded: 0n,
      embeddingCoverage: 1,
      factsByCategory: NO_FACTS,
    });
  });

  it('reports the workers’ queues and dead letters from JetStream', async () => {
    const jsm = await js.jetstreamManager();
    const spec = Consumers.embedderMessages;
    await jsm.consumers.add(spec.stream.name, {
      durable_name: spec.durable,
      filter_subject: spec.filterSubject,
      ack_policy: AckPolicy.Explicit,
    });
    for (let i = 0; i < 3; i++)
      await js.publish(Subjects.messageStored('acme'), JSON.stringify({ tenantId: 'acme' }));
    const held = await (await js.consumers.get(spec.stream.name, spec.durable)).next({ expires: 2000 }); // delivered, not acked
    expect(held).not.toBeNull();
    await js.publish(Subjects.deadLetter(spec.stream.name, spec.durable), '{}');
    await js.publish(
      Subjects.deadLetter(Consumers.ingestTurns.stream.name, Consumers.ingestTurns.durable),
      '{}',
    );

    const answer = await stats({});
    expect(answer.queues.map((q) => q.name)).toEqual(Object.values(Consumers).map((c) => c.durable));
    expect(answer.queues.find((q) => q.name === spec.durable)).toMatchObject({
      pending: 2n,
      inFlight: 1n,
      failed: 1n,
    });
    // ingest never ran here: its consumer does not exist, but its dead letter counts.
    expect(answer.queues.find((q) => q.name === Consumers.ingestTurns.durable)).toMatchObject({
      pending: 0n,
      inFlight: 0n,
      failed: 1n,
    });
    expect(answer.deadLetters).toBe(2n);
    // Queues are not per tenant: another tenant sees the same.
    expect((await stats({}, 'globex')).queues).toEqual(answer.queues);
  });

  it('refuses an agent that cannot be one', async () => {
    const failure = await stats({ agent: 'no such agent' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RpcError);
    expect(failure).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/agent must be/),
      details: {
        fieldViolations: [{ field: 'agent', description: expect.stringMatching(/^agent must be/) }],
      },
    });
  });

  it('answers in well under a second for a tenant with 10,000 messages', async () => {
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('big')`);
    const rows = await admin.query<{ id: string }>(
      `INSERT INTO conversations (tenant_id, agent, session_key)
       SELECT 'big', 'agent-' || (i % 4), 'chat-' || i FROM generate_series(1, 200) AS i RETURNING id`,
    );
    const conversations = rows.rows.map((r) => String(r.id));
    for (const [i, id] of conversations.entries()) {
      const agent = `agent-${(i + 1) % 4}`;
      const ids = await addMessages('big', id, agent, 50);
      await embed('big', 'message', ids.slice(0, 40));
      if (i % 2 === 0) await summarise('big', id, agent, 0, ids.slice(0, 30)); // 20 left; the others keep all 50
      await addFact('big', agent, i % 3 === 0 ? 'fact' : 'preference');
    }
    await admin.query('ANALYZE');

    await stats({}, 'big'); // warm
    const started = performance.now();
    const answer = await stats({}, 'big');
    const tookMs = performance.now() - started;
    const agentStarted = performance.now();
    const agentAnswer = await stats({ agent: 'agent-1' }, 'big');
    const agentTookMs = performance.now() - agentStarted;

    expect(answer).toMatchObject({
      messages: 10_000n,
      messagesEmbedded: 8_000n,
      conversationsCompacted: 100n,
    });
    expect(Object.keys(answer.unsummarisedByConversation)).toHaveLength(100);
    expect(Object.values(answer.unsummarisedByConversation).every((n) => n === 50n)).toBe(true); // the top 100: unsummarised ones
    expect(agentAnswer).toMatchObject({ messages: 2_500n, messagesEmbedded: 2_000n });
    expect(tookMs).toBeLessThan(500);
    expect(agentTookMs).toBeLessThan(500);
  });
});
