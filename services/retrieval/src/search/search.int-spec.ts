import type { Client } from 'pg';
import { Rpcs, timestampFromDate, type SearchResponse } from '@engram/contracts';
import { LOCAL_EMBEDDING_MODEL_ID, LocalEmbedder } from '@engram/local-model';
import { RpcClient, RpcError } from '@engram/messaging';
import { startServiceUnderTest, waitFor, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

/** A small memory of two tenants: chats of a user with an assistant, a summary with its sources, facts. */
const CHAT: Array<[string, string, string, string]> = [
  // session, role, author, content
  ['s1', 'user', 'Ada', 'Hey! I finally moved into the new flat in Lisbon last weekend.'],
  ['s1', 'assistant', 'Engram', 'Congratulations! How is the neighbourhood?'],
  ['s1', 'user', 'Ada', 'Quiet, close to the river, and there is a bakery downstairs.'],
  ['s1', 'assistant', 'Engram', 'What pets do you have?'],
  ['s1', 'user', 'Ada', 'Two cats, Bailey and Oliver. They love the balcony.'],
  ['s1', 'assistant', 'Engram', 'Lovely. Anything else planned this month?'],
  ['s2', 'user', 'Ada', 'The Postgres migration failed again because of the old credentials.'],
  ['s2', 'assistant', 'Engram', 'Rotate the credentials in the vault, then rerun the migration job.'],
  ['s2', 'user', 'Ada', 'Kubernetes keeps evicting the ingest pods under memory pressure.'],
  ['s2', 'assistant', 'Engram', 'Raise the memory limit or lower the batch size of ingest.'],
];

describe('memory_search (real Postgres, NATS and Gerty)', () => {
  let retrieval: ServiceUnderTest;
  let rpc: RpcClient;
  let admin: Client;
  const ids: string[] = [];
  let conversations: Record<string, string> = {};
  let summaryId: string;
  const base = Date.parse('2026-06-01T10:00:00Z');
  const embedder = LocalEmbedder.load();

  async function embed(kind: string, id: string, tenant: string, text: string) {
    const v = embedder.embedOne(text);
    await admin.query(
      `INSERT INTO embeddings (item_kind, item_id, tenant_id, model, embedding) VALUES ($1, $2, $3, $4, $5)`,
      [kind, id, tenant, LOCAL_EMBEDDING_MODEL_ID, `[${Array.from(v).join(',')}]`],
    );
  }

  async function seed() {
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    const rows = await admin.query<{ id: string; session_key: string }>(
      `INSERT INTO conversations (tenant_id, agent, session_key, channel, message_count, token_estimate) VALUES
         ('acme', 'helper', 's1', 'slack', 6, 90), ('acme', 'helper', 's2', 'web', 4, 60), ('acme', 'other-agent', 's3', 'web', 1, 15)
       RETURNING id, session_key`,
    );
    conversations = Object.fromEntries(rows.rows.map((r) => [r.session_key, String(r.id)]));
    let i = 0;
    for (const [session, role, author, content] of CHAT) {
      const at = new Date(base + (session === 's2' ? 30 : 0) * 86_400_000 + i * 60_000).toISOString();
      const r = await admin.query<{ id: string }>(
        `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, author, content, token_estimate, created_at)
         VALUES ('acme', $1, 'helper', $2, 0, $3, $4, $5, $6, 15, $7) RETURNING id`,
        [conversations[session], `t${i}`, i + 1, role, author, content, at],
      );
      ids.push(String(r.rows[0]!.id));
      await embed('message', String(r.rows[0]!.id), 'acme', content);
      i++;
    }
    const other = await admin.query<{ id: string }>(
      `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, author, content, token_estimate, created_at)
       VALUES ('acme', $1, 'other-agent', 'x', 0, 100, 'user', 'Bob', 'My cats hate the Postgres migration.', 10, $2) RETURNING id`,
      [conversations.s3, new Date(base).toISOString()],
    );
    ids.push(String(other.rows[0]!.id));
    // globex has its own conversation about cats: never visible to acme.
    await admin.query(
      `INSERT INTO conversations (tenant_id, agent, session_key, message_count, token_estimate) VALUES ('globex', 'helper', 'g1', 1, 10)`,
    );
    await admin.query(
      `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
       SELECT 'globex', id, 'helper', 'g', 0, 1, 'user', 'Globex cats Bailey and Oliver secret', 5, now() FROM conversations WHERE tenant_id = 'globex'`,
    );
    const s = await admin.query<{ id: string }>(
      `INSERT INTO summaries (tenant_id, conversation_id, agent, depth, content, earliest_at, latest_at, message_count, token_estimate, model)
       VALUES ('acme', $1, 'helper', 0, 'Infrastructure troubles: a failing database upgrade and evicted workloads.', $2, $3, 4, 20, 'test')
       RETURNING id`,
      [
        conversations.s2,
        new Date(base + 30 * 86_400_000).toISOString(),
        new Date(base + 31 * 86_400_000).toISOString(),
      ],
    );
    summaryId = String(s.rows[0]!.id);
    for (let k = 6; k < 10; k++) {
      await admin.query(
        `INSERT INTO summary_sources (tenant_id, summary_id, source_kind, source_id, ordinal) VALUES ('acme', $1, 'message', $2, $3)`,
        [summaryId, ids[k], k],
      );
    }
    await admin.query(
      `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key, source_message_ids, valid_from)
       VALUES ('acme', 'helper', 'Ada prefers tea over coffee', 'preference', 'sticky', 8, 'saved', 'f1', '{}', now()),
              ('acme', 'helper', 'Ada used to prefer coffee', 'preference', 'sticky', 8, 'saved', 'f2', '{}', now() - interval '1 year')`,
    );
    await admin.query(`UPDATE facts SET valid_to = now() WHERE origin_key = 'f2'`);
    await admin.query('VACUUM ANALYZE');
  }

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'search',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      seed: async (seeding) => {
        admin = seeding;
        await seed();
      },
      processes: ['gerty'],
    });
    rpc = retrieval.rpc;
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  const search = (request: Parameters<RpcClient['call']>[1], tenantId = 'acme') =>
    rpc.call(Rpcs.search, request, { tenantId }) as Promise<SearchResponse>;
  const errorOf = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e as RpcError,
    );

  it('finds messages by their words, each hit with its id, kind, signals, time and provenance', async () => {
    const res = await search({ query: 'Kubernetes evicting pods', topK: 3 });
    expect(res.degraded).toBe(false);
    const top = res.hits[0]!;
    expect(top).toMatchObject({ id: ids[8], kind: 'message', content: CHAT[8]![3] });
    expect(top.signals!.fulltext).toBe(1);
    expect(top.signals!.semantic).toBeGreaterThan(0);
    expect(top.signals!.temporal).toBeGreaterThan(0);
    expect(top.signals!.importance).toBe(0.5);
    expect(top.score).toBeCloseTo(top.signals!.fused, 10);
    expect(top.createdAt).toBeDefined();
    expect(top.provenance).toMatchObject({
      agent: 'helper',
      conversationId: conversations.s2,
      channel: 'web',
      role: 'user',
      author: 'Ada',
    });
  });

  it('finds an answer through the question before it (neighbouring turns are context)', async () => {
    // (Within the chat about the flat: the other chat's messages were returned, hence used, by the test before.)
    const res = await search({
      query: 'What pets does Ada have?',
      topK: 3,
      filters: { kinds: ['message'], conversationId: conversations.s1 },
    });
    expect(res.hits[0]!.id).toBe(ids[4]); // "Two cats, Bailey and Oliver" never says "pet"
  });

  it('narrows by agent, conversation, channel, role, kind and time', async () => {
    const all = await search({ query: 'cats migration', topK: 20, filters: { kinds: ['message'] } });
    expect(all.hits.map((h) => h.id)).toContain(ids[10]);
    const helperOnly = await search({
      query: 'cats migration',
      topK: 20,
      filters: { agent: 'helper', kinds: ['message'] },
    });
    expect(helperOnly.hits.every((h) => h.provenance!.agent === 'helper')).toBe(true);
    const s2 = await search({
      query: 'migration credentials',
      topK: 20,
      filters: { conversationId: conversations.s2 },
    });
    expect(s2.hits.length).toBeGreaterThan(0);
    expect(s2.hits.every((h) => h.provenance!.conversationId === conversations.s2)).toBe(true);
    const slack = await search({ query: 'cats flat Lisbon', topK: 20, filters: { channel: 'slack' } });
    expect(slack.hits.length).toBeGreaterThan(0);
    expect(slack.hits.every((h) => h.provenance!.channel === 'slack')).toBe(true);
    const assistant = await search({
      query: 'migration credentials memory',
      topK: 20,
      filters: { roles: ['assistant'] },
    });
    expect(assistant.hits.length).toBeGreaterThan(0);
    expect(assistant.hits.every((h) => h.kind === 'message' && h.provenance!.role === 'assistant')).toBe(
      true,
    );
    const facts = await search({ query: 'tea coffee', topK: 20, filters: { kinds: ['fact'] } });
    expect(facts.hits.map((h) => h.content)).toEqual(['Ada prefers tea over coffee']); // the closed fact is not served
    expect(facts.hits[0]!.signals!.importance).toBeCloseTo(0.8);
    const june = await search({
      query: 'migration cats flat',
      topK: 20,
      filters: {
        kinds: ['message'],
        from: timestampFromDate(new Date(base - 86_400_000)),
        to: timestampFromDate(new Date(base + 86_400_000)),
      },
    });
    expect(june.hits.length).toBeGreaterThan(0);
    expect(june.hits.every((h) => Math.abs(Number(h.createdAt!.seconds) * 1000 - base) < 86_400_000)).toBe(
      true,
    );
  });

  it('never shows one tenant what another remembered', async () => {
    const acme = await search({ query: 'Globex secret Bailey Oliver', topK: 50 });
    expect(acme.hits.some((h) => h.content.includes('Globex'))).toBe(false);
    const globex = await search({ query: 'Postgres migration credentials', topK: 50 }, 'globex');
    expect(globex.hits).toEqual([]);
  });

  it('matches misspellings in trigram mode and patterns in regex mode', async () => {
    const fuzzy = await search({
      query: 'Kubernets evictng',
      mode: 'trigram',
      topK: 3,
      filters: { kinds: ['message'] },
    });
    expect(fuzzy.hits[0]?.id).toBe(ids[8]);
    const regex = await search({ query: 'Bailey|Oliver', mode: 'regex', topK: 10 });
    expect(regex.hits.map((h) => h.id)).toEqual([ids[4]]);
  });

  it('expands a summary hit to its source messages, right after it and within top k', async () => {
    const res = await search({
      query: 'failing database upgrade evicted workloads',
      topK: 4,
      filters: { kinds: ['summary'] },
    });
    expect(res.hits[0]).toMatchObject({ kind: 'summary', id: summaryId, expandedFrom: '' });
    const expanded = res.hits.slice(1);
    expect(expanded.length).toBe(3);
    expect(expanded.every((h) => h.kind === 'message' && h.expandedFrom === `summary:${summaryId}`)).toBe(
      true,
    );
    expect(expanded.every((h) => ids.slice(6, 10).includes(h.id))).toBe(true);
    const off = await search({
      query: 'failing database upgrade evicted workloads',
      topK: 4,
      expand: false,
      filters: { kinds: ['summary'] },
    });
    expect(off.hits.map((h) => h.kind)).toEqual(['summary']);
  });

  it('fuses by reciprocal rank when asked', async () => {
    const res = await search({ query: 'Kubernetes evicting pods', fusion: 'rrf', topK: 3 });
    expect(res.hits[0]!.id).toBe(ids[8]);
    expect(res.hits[0]!.signals!.fused).toBeLessThanOrEqual(2 / 61 + 1e-9);
  });

  it('answers bad requests with structured errors', async () => {
    const cases: Array<[Parameters<RpcClient['call']>[1], string, string?]> = [
      [{ query: 'x', topK: -1 }, 'INVALID_ARGUMENT'],
      [{ query: '   ' }, 'INVALID_ARGUMENT'],
      [{ query: 'a'.repeat(2001) }, 'INVALID_ARGUMENT'],
      [{ query: '(a+)+$', mode: 'regex' }, 'INVALID_ARGUMENT'],
      [{ query: '(unclosed', mode: 'regex' }, 'INVALID_ARGUMENT'],
      [{ query: 'x', mode: 'semantic-only' }, 'INVALID_ARGUMENT'],
      [{ query: 'x', filters: { kinds: ['note'] } }, 'INVALID_ARGUMENT'],
      [{ query: 'cats' }, 'NOT_FOUND', 'nobody'],
    ];
    for (const [request, code, tenant] of cases) {
      const error = await errorOf(search(request, tenant));
      expect(error).toBeInstanceOf(RpcError);
      expect({ request, code: error!.code }).toEqual({ request, code });
      expect(error!.message.length).toBeGreaterThan(5);
    }
  });

  it('refuses a bad field before searching, with a violation naming it (Postgres’ verdict on a regex too)', async () => {
    expect(await errorOf(search({ query: 'cats', filters: { conversationId: 'abc' } }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: {
        fieldViolations: [{ field: 'filters.conversationId', description: '"abc" is not a conversation id' }],
      },
    });
    const unclosed = await errorOf(search({ query: '(unclosed', mode: 'regex' }));
    expect(unclosed).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { fieldViolations: [{ field: 'query' }] },
    });
  });

  it('records what it returned as accessed, after answering', async () => {
    const before = new Date();
    const res = await search({ query: 'bakery downstairs river', topK: 1, filters: { kinds: ['message'] } });
    expect(res.hits[0]!.id).toBe(ids[2]);
    await waitFor(
      'access recorded',
      async () => {
        const row = (
          await admin.query(
            `SELECT access_count, last_accessed_at FROM item_access WHERE item_kind = 'message' AND item_id = $1`,
            [ids[2]],
          )
        ).rows[0];
        return row?.access_count >= 1 && row.last_accessed_at >= before;
      },
      10_000,
    );
    const again = await search({
      query: 'bakery downstairs river',
      topK: 1,
      filters: { kinds: ['message'] },
    });
    expect(again.hits[0]!.lastAccessedAt).toBeDefined();
  });

  it("without Gerty it still ranks by meaning: the built-in model's query vector is made in retrieval", async () => {
    const gerty = retrieval.process('gerty');
    gerty.kill();
    await gerty.exited;
    const res = await search({ query: 'Kubernetes evicting pods', topK: 3 });
    expect(res.degraded).toBe(false);
    expect(res.hits[0]!.id).toBe(ids[8]);
    expect(res.hits[0]!.signals!.semantic).toBeGreaterThan(0);
  });
});
