import { Rpcs, Subjects, type SearchResponse } from '@engram/contracts';
import { register } from 'prom-client';
import { startServiceUnderTest, waitFor, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';
import { MemoryIndex } from './index/memory-index.service';

/**
 * memory_search from the tenant's in-memory index (real ingest, Postgres and NATS): Postgres
 * answers while the index loads, the index after; a stored message is found by the next strong
 * search and soon by any; a forgotten fact is never returned once forget answered; a tenant
 * bigger than the memory allowed stays on Postgres.
 */
describe('memory_search from the in-memory index (real ingest, Postgres and NATS)', () => {
  let retrieval: ServiceUnderTest;
  let memoryIndex: MemoryIndex;
  let turns = 0;

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'memory-index',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      // No Gerty: searches answer from full text at once.
      config: { SEARCH_EMBED_TIMEOUT_MS: '50', RETRIEVAL_INDEX_MEMORY_MB: '1' },
      seed: async (admin) => {
        await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('bigco')`);
        // bigco: 20,000 messages, an index of several MB, more than the 1 MB allowed.
        await admin.query(
          `INSERT INTO conversations (tenant_id, agent, session_key, message_count, token_estimate) VALUES ('bigco', 'helper', 'big', 20000, 200000)`,
        );
        await admin.query(
          `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
           SELECT 'bigco', c.id, 'helper', 't' || i, 0, i, 'user', 'word' || i || ' lexeme' || (i % 977) || ' kangaroo', 10, now()
             FROM conversations c, generate_series(1, 20000) i WHERE c.tenant_id = 'bigco'`,
        );
      },
      processes: ['ingest'],
    });
    memoryIndex = retrieval.apps[0]!.get(MemoryIndex);
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  const search = (query: string, extra: Record<string, unknown> = {}, tenantId = 'acme') =>
    retrieval.rpc.call(
      Rpcs.search,
      { query, recordAccess: false, ...extra },
      { tenantId },
    ) as Promise<SearchResponse>;

  /** Publishes one turn of Ada and the assistant, as an agent runtime does. */
  async function say(user: string, assistant: string, tenantId = 'acme'): Promise<void> {
    const turnId = `turn-${++turns}`;
    const turn = {
      turnId,
      sessionKey: 'chat',
      messages: [
        { role: 'user', author: 'Ada', content: user },
        { role: 'assistant', content: assistant },
      ],
    };
    await retrieval.js.publish(Subjects.turn(tenantId, 'helper'), JSON.stringify(turn), { msgID: turnId });
  }

  const stored = (token: string) =>
    retrieval.count(`SELECT count(*) AS n FROM messages WHERE content LIKE $1`, [`%${token}%`]);

  it('answers from Postgres while the index loads, then from the index, with the same hits', async () => {
    await say('I adopted two cats, Bailey and Oliver, last spring.', 'Lovely names for cats!');
    await say(
      'The Postgres migration failed again because of old credentials.',
      'Rotate the credentials first.',
    );
    await waitFor('the turns stored', async () => (await stored('credentials')) === 2, 20_000);

    const first = await search('cats Bailey');
    expect(first.answeredBy).toBe('sql');
    expect(await memoryIndex.load('acme')).not.toBeNull();
    const second = await search('cats Bailey');
    expect(second.answeredBy).toBe('index');
    expect(second.hits.map((h) => h.id)).toEqual(first.hits.map((h) => h.id));
    expect(second.hits[0]!.content).toContain('Bailey');
    // Trigram and regex modes stay on Postgres.
    expect((await search('Baily', { mode: 'trigram' })).answeredBy).toBe('sql');
  });

  it('finds a message stored just before a strong search, every time', async () => {
    await memoryIndex.load('acme');
    for (let i = 0; i < 5; i++) {
      const token = `zebracode${i}x${Date.now().toString(36)}`;
      await say(`My locker code is ${token}.`, 'I will remember it.');
      await waitFor('the turn stored', async () => (await stored(token)) === 1, 20_000, 2);
      const found = await search(token, { consistency: 'strong' });
      expect(found.answeredBy).toBe('index');
      expect(found.hits.map((h) => h.content)).toContainEqual(expect.stringContaining(token));
    }
  });

  it('finds a stored message from the index soon without asking for strong consistency', async () => {
    await memoryIndex.load('acme');
    const token = `walrus${Date.now().toString(36)}`;
    await say(`The walrus password is ${token}.`, 'Noted.');
    await waitFor(
      'the index to find it',
      async () => {
        const r = await search(token);
        return r.answeredBy === 'index' && r.hits.some((h) => h.content.includes(token));
      },
      20_000,
      20,
    );
  });

  it('finds a fact saved through it at once, and never returns it once forget answered', async () => {
    await memoryIndex.load('acme');
    const saved = (await retrieval.rpc.call(
      Rpcs.save,
      { agent: 'helper', content: 'Ada is allergic to hazelnuts', category: 'fact' },
      { tenantId: 'acme' },
    )) as { factId: string };
    const factId = saved.factId;
    // Saved through this replica: in its index before the save answered, with no event awaited.
    const found = await search('hazelnuts allergic', { filters: { kinds: ['fact'] } });
    expect(found.answeredBy).toBe('index');
    expect(found.hits.map((h) => h.id)).toContain(factId);
    await retrieval.rpc.call(Rpcs.forget, { factId, reason: 'test' }, { tenantId: 'acme' });
    const after = await search('hazelnuts allergic', { filters: { kinds: ['fact'] } });
    expect(after.answeredBy).toBe('index');
    expect(after.hits.map((h) => h.id)).not.toContain(factId);
  });

  it('finds a summary and a fact another process wrote with the next strong search', async () => {
    await memoryIndex.load('acme');
    const token = `narwhal${Date.now().toString(36)}`;
    // Written as the compactor or another replica would, whose events this replica has not heard.
    const [{ conversation_id: conversationId }] = await retrieval.sql<{ conversation_id: string }>(
      `SELECT id::text AS conversation_id FROM conversations WHERE tenant_id = 'acme' LIMIT 1`,
    );
    const [summary] = await retrieval.sql<{ id: string }>(
      `INSERT INTO summaries (tenant_id, conversation_id, agent, depth, content, earliest_at, latest_at,
                              message_count, token_estimate, model)
       VALUES ('acme', $1, 'helper', 0, $2, now(), now(), 2, 12, 'test') RETURNING id::text`,
      [conversationId, `Ada and the assistant agreed the ${token} summary plan.`],
    );
    const [fact] = await retrieval.sql<{ id: string }>(
      `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key, valid_from)
       VALUES ('acme', 'helper', $1, 'fact', 'sticky', 7, 'saved', $2, now()) RETURNING id::text`,
      [`Ada keeps a ${token} fact.`, `test:${token}`],
    );
    const found = await search(token, { consistency: 'strong', filters: { kinds: ['summary', 'fact'] } });
    expect(found.answeredBy).toBe('index');
    expect(found.hits.map((h) => `${h.kind}:${h.id}`).sort()).toEqual(
      [`fact:${fact!.id}`, `summary:${summary!.id}`].sort(),
    );
  });

  it('leaves a tenant bigger than the memory allowed to Postgres', async () => {
    expect(await memoryIndex.load('bigco')).toBeNull();
    const r = await search('kangaroo lexeme5', {}, 'bigco');
    expect(r.answeredBy).toBe('sql');
    expect(r.hits.length).toBeGreaterThan(0);
    // acme, small, is still held.
    expect((await search('cats')).answeredBy).toBe('index');
  });

  it('reports what its indexes hold when the metrics are read', async () => {
    await memoryIndex.load('acme');
    const value = async (name: string) => (await register.getSingleMetric(name)!.get()).values[0]?.value;
    // acme only: bigco was refused.
    expect(await value('engram_search_index_tenants')).toBe(1);
    const bytes = await value('engram_search_index_bytes');
    expect(bytes).toBeGreaterThan(1000);
    expect(bytes).toBeLessThan(1024 * 1024);
  });

  it('loads again an index that missed a change, and counts no rows while the store is quiet', async () => {
    const index = () => memoryIndex.indexFor('acme');
    await waitFor(
      'the index of acme loaded',
      async () => (await search('cats')).answeredBy === 'index',
      20_000,
    );
    // Quiet: every table's statistics flushed and unchanged, the index as the store: nothing is counted.
    await waitFor(
      'a reconciliation that counts nothing',
      async () => (await memoryIndex.reconcile()) === 0,
      60_000,
    );
    const held = index()!.counts.messages;

    // A message no event announces (written behind the services' back): the index misses it.
    await retrieval.admin.query(
      `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
       SELECT 'acme', c.id, 'helper', 'unannounced', 0, 0, 'user', 'an unannounced wombat', 10, now()
         FROM conversations c WHERE c.tenant_id = 'acme' LIMIT 1`,
    );
    await retrieval.admin.query(`SELECT pg_stat_force_next_flush()`);
    await waitFor(
      'the index loaded again with it',
      async () => {
        await memoryIndex.reconcile();
        return (index()?.counts.messages ?? 0) === held + 1;
      },
      60_000,
    );
  });
});
