import type { JetStreamClient } from '@nats-io/jetstream';
import { Client } from 'pg';
import { Rpcs, rpcSubject } from '@engram/contracts';
import { RpcClient, RpcError } from '@engram/messaging';
import { factEvents, startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

const DAY_MS = 24 * 60 * 60 * 1000;

interface FactRecord {
  id: string;
  agent: string;
  content: string;
  category: string;
  lifetime: string;
  importance: number;
  origin: string;
  origin_key: string;
  conversation_id: string | null;
  source_message_ids: string[];
  valid_from: Date;
  valid_to: Date | null;
  expires_at: Date | null;
}

describe('memory_save (real Postgres and NATS)', () => {
  let retrieval: ServiceUnderTest;
  let rpc: RpcClient;
  let admin: Client;
  let js: JetStreamClient;
  const ids = {
    conversation: '',
    otherAgentConversation: '',
    globexConversation: '',
    messages: [] as string[],
    globexMessage: '',
  };

  const save = (request: Parameters<RpcClient['call']>[1], tenantId = 'acme') =>
    rpc.call(Rpcs.save, request, { tenantId });
  const failureOf = (request: Parameters<RpcClient['call']>[1], tenantId = 'acme') =>
    save(request, tenantId).then(
      () => {
        throw new Error('expected the save to fail');
      },
      (error: unknown) => error as RpcError,
    );
  const factsOf = async (tenant: string, agent = 'helper') =>
    (
      await admin.query<FactRecord>(`SELECT * FROM facts WHERE tenant_id = $1 AND agent = $2 ORDER BY id`, [
        tenant,
        agent,
      ])
    ).rows.map((r) => ({
      ...r,
      id: String(r.id),
      conversation_id: r.conversation_id === null ? null : String(r.conversation_id),
      source_message_ids: r.source_message_ids.map(String),
    }));
  const factById = async (id: string) =>
    (await admin.query<FactRecord>(`SELECT * FROM facts WHERE id = $1`, [id])).rows[0]!;

  /** Every fact event of the tenant in MEMORY_EVENTS, read through an ordered consumer, with its Nats-Msg-Id. */
  const factsAnnounced = (tenantId: string) => factEvents(js, tenantId);

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'save',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      seed: async (seeding) => {
        admin = seeding;
        await admin.query(
          `INSERT INTO tenants (tenant_id, memory_enabled) VALUES ('acme', true), ('globex', true), ('quiet', false)`,
        );
        const conversations = await admin.query<{ id: string }>(
          `INSERT INTO conversations (tenant_id, agent, session_key) VALUES
           ('acme', 'helper', 'chat-1'), ('acme', 'other', 'chat-2'), ('globex', 'helper', 'chat-1')
         RETURNING id`,
        );
        [ids.conversation, ids.otherAgentConversation, ids.globexConversation] = conversations.rows.map((r) =>
          String(r.id),
        );
        const messages = await admin.query<{ id: string }>(
          `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
         VALUES ('acme', $1, 'helper', 't1', 0, 1, 'user', 'I like dark mode', 4, now()),
                ('acme', $1, 'helper', 't1', 1, 1, 'assistant', 'Noted', 2, now()),
                ('acme', $2, 'other', 't1', 0, 2, 'user', 'hello', 1, now()),
                ('globex', $3, 'helper', 't1', 0, 3, 'user', 'globex secret', 2, now())
         RETURNING id`,
          [ids.conversation, ids.otherAgentConversation, ids.globexConversation],
        );
        ids.messages = messages.rows.map((r) => String(r.id));
        ids.globexMessage = ids.messages[3]!;
      },
    });
    ({ admin, rpc, js } = retrieval);
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  it('stores a fact with its lifetime, expiry and the category’s default importance', async () => {
    const before = Date.now();
    const saved = await save({
      agent: 'helper',
      content: 'The user prefers dark mode.',
      category: 'preference',
      lifetime: 'user_preference',
    });
    expect(saved).toMatchObject({ deduplicated: false });
    const fact = await factById(saved.factId);
    expect(fact).toMatchObject({
      agent: 'helper',
      content: 'The user prefers dark mode.',
      category: 'preference',
      lifetime: 'user_preference',
      importance: 8,
      origin: 'saved',
      valid_to: null,
      conversation_id: null,
    });
    expect(fact.origin_key).toMatch(/^saved:helper:/);
    expect(fact.valid_from.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(fact.valid_from.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(fact.expires_at!.getTime() - fact.valid_from.getTime()).toBe(90 * DAY_MS);

    const plain = await save({ agent: 'helper', content: 'The project is called Engram.' });
    expect(await factById(plain.factId)).toMatchObject({
      category: 'general',
      lifetime: 'sticky',
      importance: 4,
      expires_at: null,
    });

    const chosen = await save({
      agent: 'helper',
      content: 'Deploys happen on Fridays.',
      category: 'decision',
      lifetime: 'project_context',
      importance: 2,
    });
    const decision = await factById(chosen.factId);
    expect(decision).toMatchObject({ category: 'decision', importance: 2 });
    expect(decision.expires_at!.getTime() - decision.valid_from.getTime()).toBe(30 * DAY_MS);
  });

  it('announces a saved fact on mem.fact.upserted so the embedder embeds it', async () => {
    const saved = await save({
      agent: 'helper',
      content: 'The user’s cat is called Miso.',
      category: 'relationship',
    });
    const events = await factsAnnounced('acme');
    const mine = events.filter((e) => e.event.factId === saved.factId);
    expect(mine).toEqual([
      {
        event: expect.objectContaining({
          tenantId: 'acme',
          agent: 'helper',
          factId: saved.factId,
          operation: 'created',
          category: 'relationship',
        }),
        msgId: `fact:acme:${saved.factId}:created`,
      },
    ]);
  });

  it('records where the fact was said; source messages of one conversation name it', async () => {
    const [m0, m1] = ids.messages;
    const explicit = await save({
      agent: 'helper',
      content: 'The user wants answers in Portuguese.',
      conversationId: ids.conversation,
      sourceMessageIds: [m0!],
    });
    expect(await factById(explicit.factId)).toMatchObject({
      conversation_id: ids.conversation,
      source_message_ids: [m0],
    });
    const implied = await save({
      agent: 'helper',
      content: 'Standups start at nine sharp.',
      sourceMessageIds: [m0!, m1!],
    });
    expect(await factById(implied.factId)).toMatchObject({
      conversation_id: ids.conversation,
      source_message_ids: [m0, m1],
    });
  });

  it('answers the existing fact when an open fact of the agent holds more than 70 % of the words, and adds no row', async () => {
    const first = await save({
      agent: 'helper',
      content: 'The user lives in Lisbon with two cats.',
      lifetime: 'project_context',
    });
    const expiresBefore = (await factById(first.factId)).expires_at!;
    const count = (await factsOf('acme')).length;

    // 8 of 10 distinct words already known (80 %): the same fact; its lifetime is renewed.
    const again = await save({
      agent: 'helper',
      content: 'User lives in Lisbon with two cats and parrots',
      lifetime: 'user_preference',
    });
    expect(again).toMatchObject({ factId: first.factId, deduplicated: true });
    expect(await factsOf('acme')).toHaveLength(count);
    expect((await factById(first.factId)).expires_at!.getTime()).toBeGreaterThan(
      expiresBefore.getTime() + 59 * DAY_MS,
    );

    // 7 of 10 (exactly 70 %, not more): something new.
    const different = await save({
      agent: 'helper',
      content: 'The user lives in Lisbon with two dogs and parrots',
    });
    expect(different.deduplicated).toBe(false);
    expect(different.factId).not.toBe(first.factId);
    expect(await factsOf('acme')).toHaveLength(count + 1);

    // Another agent's facts are not this agent's.
    const otherAgent = await save({ agent: 'other', content: 'The user lives in Lisbon with two cats.' });
    expect(otherAgent.deduplicated).toBe(false);
  });

  it('makes a retried save idempotent: the same fact, announced once', async () => {
    const first = await save({
      agent: 'helper',
      content: 'Backups run nightly at 02:00 UTC.',
      category: 'fact',
    });
    const retry = await save({
      agent: 'helper',
      content: '  backups run NIGHTLY at 02:00 utc. ',
      category: 'fact',
    });
    expect(retry).toMatchObject({ factId: first.factId, deduplicated: true });
    expect((await factsOf('acme')).filter((f) => f.content.startsWith('Backups'))).toHaveLength(1);
    const announced = (await factsAnnounced('acme')).filter((e) => e.event.factId === first.factId);
    expect(announced).toHaveLength(1); // announced again under the same msg id: JetStream dropped the repeat
  });

  it('keeps tenants apart: another tenant’s identical fact is not a duplicate, and its rows cannot be cited', async () => {
    const acme = await save({ agent: 'helper', content: 'The office is in Porto.' });
    const globex = await save({ agent: 'helper', content: 'The office is in Porto.' }, 'globex');
    expect(globex.deduplicated).toBe(false);
    expect(globex.factId).not.toBe(acme.factId);
    expect(
      await failureOf({ agent: 'helper', content: 'x y z', conversationId: ids.globexConversation }),
    ).toMatchObject({
      code: 'NOT_FOUND',
      message: `conversation ${ids.globexConversation} not found`,
    });
    expect(
      await failureOf({ agent: 'helper', content: 'x y z', sourceMessageIds: [ids.globexMessage] }),
    ).toMatchObject({
      code: 'NOT_FOUND',
      details: { missingMessageIds: [ids.globexMessage] },
    });
  });

  it('refuses to keep facts for a tenant that switched memory off', async () => {
    expect(await failureOf({ agent: 'helper', content: 'The user is secretive.' }, 'quiet')).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: expect.stringMatching(/memory is switched off/),
    });
    expect((await admin.query(`SELECT 1 FROM facts WHERE tenant_id = 'quiet'`)).rows).toEqual([]);
  });

  it.each([
    [{ content: 'x' }, 'INVALID_ARGUMENT', /agent is required/, 'agent'],
    [{ agent: 'helper' }, 'INVALID_ARGUMENT', /content is required/, 'content'],
    [
      { agent: 'helper', content: 'x'.repeat(4001) },
      'INVALID_ARGUMENT',
      /4001 characters long; at most 4000/,
      'content',
    ],
    [
      { agent: 'helper', content: 'x', category: 'gossip' },
      'INVALID_ARGUMENT',
      /category must be one of/,
      'category',
    ],
    [
      { agent: 'helper', content: 'x', lifetime: 'forever' },
      'INVALID_ARGUMENT',
      /lifetime must be one of/,
      'lifetime',
    ],
    [
      { agent: 'helper', content: 'x', importance: 11 },
      'INVALID_ARGUMENT',
      /importance must be between 1 and 10/,
      'importance',
    ],
    [{ agent: 'helper', content: 'x', importance: -1 }, 'INVALID_ARGUMENT', /importance/, 'importance'],
    [
      { agent: 'helper', content: 'x', conversationId: 'abc' },
      'INVALID_ARGUMENT',
      /"abc" is not a conversation id/,
      'conversationId',
    ],
    [
      { agent: 'helper', content: 'x', sourceMessageIds: ['1', 'm-2'] },
      'INVALID_ARGUMENT',
      /not message ids: "m-2"/,
      'sourceMessageIds',
    ],
  ])('refuses %j: %s with a field violation, and stores nothing', async (request, code, message, field) => {
    const facts = async () => (await admin.query(`SELECT count(*)::int AS n FROM facts`)).rows[0].n as number;
    const before = await facts();
    const failure = await failureOf(request);
    expect(await facts()).toBe(before);
    expect(failure).toBeInstanceOf(RpcError);
    expect(failure.code).toBe(code);
    expect(failure.message).toMatch(message);
    expect(failure.details['fieldViolations']).toEqual([
      { field, description: expect.stringMatching(message) },
    ]);
  });

  it('refuses sources that do not exist or belong elsewhere', async () => {
    expect(await failureOf({ agent: 'helper', content: 'x', conversationId: '999999' })).toMatchObject({
      code: 'NOT_FOUND',
      message: 'conversation 999999 not found',
    });
    expect(
      await failureOf({ agent: 'helper', content: 'x', sourceMessageIds: ['999998', '999999'] }),
    ).toMatchObject({
      code: 'NOT_FOUND',
      message: 'source messages 999998, 999999 not found',
    });
    expect(
      await failureOf({ agent: 'helper', content: 'x', conversationId: ids.otherAgentConversation }),
    ).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: `conversation ${ids.otherAgentConversation} belongs to agent "other", not "helper"`,
    });
    expect(
      await failureOf({
        agent: 'helper',
        content: 'x',
        conversationId: ids.conversation,
        sourceMessageIds: [ids.messages[2]!],
      }),
    ).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: `source messages must be in conversation ${ids.conversation}: ${ids.messages[2]} are not`,
    });
  });

  it('refuses unknown request fields, so a typo does not silently save a general fact', async () => {
    const reply = await retrieval.nc.request(
      rpcSubject(Rpcs.save, 'acme'),
      JSON.stringify({ agent: 'helper', content: 'x', catgory: 'fact' }),
    );
    expect(reply.json()).toMatchObject({
      error: { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/catgory/) },
    });
  });
});
