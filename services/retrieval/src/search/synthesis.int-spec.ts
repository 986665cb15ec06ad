import type { Client } from 'pg';
import { Rpcs, type SearchResponse } from '@engram/contracts';
import { LOCAL_EMBEDDING_MODEL_ID, LocalEmbedder } from '@engram/local-model';
import type { RpcClient } from '@engram/messaging';
import { startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

const CHAT: Array<[string, string, string]> = [
  // role, author, content
  ['user', 'Ada', 'Hey! I finally moved into the new flat in Lisbon last weekend.'],
  ['assistant', 'Engram', 'Congratulations! What pets do you have?'],
  ['user', 'Ada', 'Two cats, Bailey and Oliver. They love the balcony.'],
  ['user', 'Ada', 'The Postgres migration failed again because of the old credentials.'],
];

/** memory_search with synthesize: Gerty (the built-in model, its own process) writes a short answer over the hits. */
describe('memory_search with a synthesis (real Postgres, NATS and Gerty)', () => {
  let retrieval: ServiceUnderTest;
  let rpc: RpcClient;

  async function seed(admin: Client) {
    const embedder = LocalEmbedder.load();
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme')`);
    const conversation = await admin.query<{ id: string }>(
      `INSERT INTO conversations (tenant_id, agent, session_key, channel, message_count, token_estimate)
       VALUES ('acme', 'helper', 's1', 'web', ${CHAT.length}, 60) RETURNING id`,
    );
    for (const [i, [role, author, content]] of CHAT.entries()) {
      const message = await admin.query<{ id: string }>(
        `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, author, content, token_estimate, created_at)
         VALUES ('acme', $1, 'helper', $2, 0, $3, $4, $5, $6, 15, $7) RETURNING id`,
        [
          conversation.rows[0]!.id,
          `t${i}`,
          i + 1,
          role,
          author,
          content,
          new Date(Date.parse('2026-06-01T10:00:00Z') + i * 60_000).toISOString(),
        ],
      );
      await admin.query(
        `INSERT INTO embeddings (item_kind, item_id, tenant_id, model, embedding) VALUES ('message', $1, 'acme', $2, $3)`,
        [
          message.rows[0]!.id,
          LOCAL_EMBEDDING_MODEL_ID,
          `[${Array.from(embedder.embedOne(content)).join(',')}]`,
        ],
      );
    }
    await admin.query('VACUUM ANALYZE');
  }

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'synthesis',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      seed,
      processes: ['gerty'],
    });
    rpc = retrieval.rpc;
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  const search = (request: Parameters<RpcClient['call']>[1]) =>
    rpc.call(Rpcs.search, request, { tenantId: 'acme' }) as Promise<SearchResponse>;
  const refs = (res: SearchResponse) => res.hits.map((h) => `${h.kind}:${h.id}`);

  it('answers over the hits, citing ids that are among them, named with the model that wrote it', async () => {
    const res = await search({
      query: 'What are the names of the cats?',
      topK: 5,
      synthesize: true,
      recordAccess: false,
    });
    expect(res.degraded).toBe(false);
    expect(res.synthesis).toBeDefined();
    const { answer, citedIds, model } = res.synthesis!;
    expect(answer).toContain('Bailey and Oliver');
    expect(citedIds.length).toBeGreaterThan(0);
    for (const id of citedIds) {
      expect(refs(res)).toContain(id);
      expect(answer).toContain(`[${id}]`);
    }
    expect(model).toBe('engram-local-rules-v1');
  });

  it('writes no synthesis unless asked', async () => {
    const res = await search({ query: 'What are the names of the cats?', topK: 5, recordAccess: false });
    expect(res.hits.length).toBeGreaterThan(0);
    expect(res.synthesis).toBeUndefined();
  });

  it('without Gerty still answers with the hits, and says why the synthesis is missing', async () => {
    const gerty = retrieval.process('gerty');
    gerty.kill();
    await gerty.exited;
    const res = await search({
      query: 'What are the names of the cats?',
      topK: 5,
      synthesize: true,
      recordAccess: false,
    });
    expect(refs(res).length).toBeGreaterThan(0);
    expect(res.synthesis).toBeUndefined();
    expect(res.degraded).toBe(true);
    // The query vector is not: the built-in model's is made in retrieval.
    expect(res.degradedReason).toMatch(/^no synthesis \(gerty: .+\)$/);
  });
});
