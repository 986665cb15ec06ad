import type { Client } from 'pg';
import { Rpcs, timestampDate } from '@engram/contracts';
import type { RpcClient } from '@engram/messaging';
import { rpcFailure, startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

describe('mem.rpc.conversations.list (real Postgres and NATS)', () => {
  let retrieval: ServiceUnderTest;
  let rpc: RpcClient;
  const ids: Record<string, string> = {};

  /** Conversations as ingest leaves them; created in an order unlike their first messages'. */
  async function seed(admin: Client) {
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    const rows = await admin.query<{ id: string; session_key: string }>(
      `INSERT INTO conversations (tenant_id, agent, session_key, channel, title, model, settings, message_count,
                                  first_message_at, last_message_at) VALUES
         ('acme', 'helper', 'late', 'web', 'Later chat', 'gpt-4o', '{"lang":"en"}', 4, '2026-03-05T10:00Z', '2026-03-05T11:00Z'),
         ('acme', 'helper', 'early', NULL, NULL, NULL, '{}', 2, '2026-03-01T10:00Z', '2026-03-01T10:05Z'),
         ('acme', 'other', 'same-time', 'slack', NULL, NULL, '{}', 1, '2026-03-01T10:00Z', '2026-03-01T10:00Z'),
         ('globex', 'helper', 'theirs', NULL, NULL, NULL, '{}', 1, '2026-03-01T08:00Z', '2026-03-01T08:00Z')
       RETURNING id::text, session_key`,
    );
    for (const r of rows.rows) ids[r.session_key] = r.id;
  }

  const list = (request: Parameters<RpcClient['call']>[1], tenantId = 'acme') =>
    rpc.call(Rpcs.conversationsList, request as never, { tenantId });

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'conversations',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      seed,
    });
    ({ rpc } = retrieval);
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  it('answers the tenant’s conversations by first message, then agent and session key, with their attributes', async () => {
    const page = await list({});
    expect(page.total).toBe(3n);
    expect(page.conversations.map((c) => `${c.agent}/${c.sessionKey}`)).toEqual([
      'helper/early',
      'other/same-time',
      'helper/late',
    ]);
    const late = page.conversations[2]!;
    expect(late).toMatchObject({
      id: ids['late'],
      channel: 'web',
      title: 'Later chat',
      model: 'gpt-4o',
      settings: { lang: 'en' },
      messageCount: 4n,
    });
    expect(timestampDate(late.firstMessageAt!).toISOString()).toBe('2026-03-05T10:00:00.000Z');
  });

  it('narrows to an agent or one conversation, and pages', async () => {
    expect((await list({ agent: 'helper' })).conversations.map((c) => c.sessionKey)).toEqual([
      'early',
      'late',
    ]);
    expect((await list({ conversationId: ids['late'] })).conversations.map((c) => c.sessionKey)).toEqual([
      'late',
    ]);
    const second = await list({ limit: 1, offset: 1 });
    expect(second.conversations.map((c) => c.sessionKey)).toEqual(['same-time']);
    expect(second.total).toBe(3n);
  });

  it('finds conversations holding every word of the query in title, agent, session key or channel', async () => {
    const keys = async (request: Record<string, unknown>) =>
      (await list(request)).conversations.map((c) => c.sessionKey);
    expect(await keys({ query: 'later' })).toEqual(['late']);
    expect(await keys({ query: '  SLACK   other ' })).toEqual(['same-time']);
    expect(await keys({ query: 'helper ear' })).toEqual(['early']);
    expect(await keys({ query: 'helper slack' })).toEqual([]);
    // Pattern characters are taken literally.
    expect(await keys({ query: '%' })).toEqual([]);
    expect(await keys({ query: 'same_time' })).toEqual([]);
    const paged = await list({ query: 'helper', limit: 1 });
    expect(paged.total).toBe(2n);
    expect(paged.conversations).toHaveLength(1);
    // Another tenant's conversation is not found by its words.
    expect(await keys({ query: 'theirs' })).toEqual([]);
  });

  it('orders by last message, newest first, when asked', async () => {
    expect((await list({ newestFirst: true })).conversations.map((c) => c.sessionKey)).toEqual([
      'late',
      'early',
      'same-time',
    ]);
  });

  it('keeps tenants apart', async () => {
    expect((await list({}, 'globex')).conversations.map((c) => c.sessionKey)).toEqual(['theirs']);
    expect((await list({ conversationId: ids['late'] }, 'globex')).total).toBe(0n);
  });

  it('refuses a bad field with a violation naming it', async () => {
    expect(await rpcFailure(rpc, Rpcs.conversationsList, { conversationId: 'chat-7' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: {
        fieldViolations: [{ field: 'conversationId', description: '"chat-7" is not a conversation id' }],
      },
    });
    expect(await rpcFailure(rpc, Rpcs.conversationsList, { query: 'x'.repeat(201) })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { fieldViolations: [{ field: 'query', description: 'query is longer than 200 characters' }] },
    });
  });
});
