import type { Client } from 'pg';
import { Rpcs, timestampDate } from '@engram/contracts';
import type { RpcClient } from '@engram/messaging';
import { rpcFailure, startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

/**
 * mem.rpc.compactions.list over compactions written as the compactor's session compaction
 * writes them (a rolling summary per step, spanning everything compacted so far, its messages
 * marked compacted), a conversation never compacted, and another tenant's compaction.
 * Unknown and foreign conversations are NOT_FOUND, as for mem.rpc.summaries.list.
 */
describe('mem.rpc.compactions.list (real Postgres and NATS)', () => {
  let retrieval: ServiceUnderTest;
  let rpc: RpcClient;
  const c: Record<'chat' | 'fresh' | 'theirs', string> = {} as never;
  const m: string[] = [];
  const minute = (i: number) => new Date(Date.parse('2026-05-01T09:00:00Z') + i * 60_000).toISOString();

  async function seed(admin: Client) {
    const one = async (text: string, params: unknown[]) =>
      String((await admin.query(text, params)).rows[0].id);
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    const conversation = (tenant: string, key: string) =>
      one(
        `INSERT INTO conversations (tenant_id, agent, session_key) VALUES ($1, 'helper', $2) RETURNING id`,
        [tenant, key],
      );
    c.chat = await conversation('acme', 'chat');
    c.fresh = await conversation('acme', 'fresh');
    c.theirs = await conversation('globex', 'theirs');
    const message = (tenant: string, conversationId: string, i: number) =>
      one(
        `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
         VALUES ($1, $2, 'helper', $3, 0, $4, 'user', $5, 75, $6) RETURNING id`,
        [tenant, conversationId, `t${i}`, 100 + i, `message ${i}`, minute(i)],
      );
    for (let i = 0; i < 6; i++) m.push(await message('acme', c.chat, i));
    const theirs = await message('globex', c.theirs, 0);
    /** One step, as SessionCompactionRepository.insert records it, and its messages marked. */
    const step = async (
      tenant: string,
      conversationId: string,
      ids: string[],
      content: string,
      since: string,
    ) => {
      await admin.query(
        `INSERT INTO compactions (tenant_id, conversation_id, agent, content, first_message_id, last_message_id, message_count,
                                  compacted_tokens, token_estimate, earliest_at, latest_at, model, fact_ids)
         SELECT $1, $2, 'helper', $3, ($4::bigint[])[1], ($4::bigint[])[cardinality($4::bigint[])], cardinality($4::bigint[]),
                75 * cardinality($4::bigint[]), 30, $5::timestamptz, max(created_at), 'engram-local-rules-v1', '{}'
           FROM messages WHERE id = ANY($4::bigint[])`,
        [tenant, conversationId, content, ids, since],
      );
      await admin.query(`UPDATE messages SET compacted_at = now() WHERE id = ANY($1::bigint[])`, [ids]);
    };
    await step('acme', c.chat, m.slice(0, 2), 'Ada asked about messages 0 and 1.', minute(0));
    await step('acme', c.chat, m.slice(2, 5), 'Ada asked about messages 0 to 4.', minute(0));
    await step('globex', c.theirs, [theirs], 'Globex vault combination is 7734.', minute(0));
  }

  const list = (conversationId: string, tenantId = 'acme') =>
    rpc.call(Rpcs.compactionsList, { conversationId }, { tenantId });

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'compactions',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      seed,
    });
    ({ rpc } = retrieval);
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  it('answers every step oldest first: its summary, its messages, tokens, model and span', async () => {
    const { compactions } = await list(c.chat);
    expect(compactions.map((s) => s.content)).toEqual([
      'Ada asked about messages 0 and 1.',
      'Ada asked about messages 0 to 4.',
    ]);
    expect(compactions[1]).toMatchObject({
      firstMessageId: m[2],
      lastMessageId: m[4],
      messageCount: 3,
      compactedTokens: 225,
      tokenEstimate: 30,
      model: 'engram-local-rules-v1',
    });
    // The rolling summary spans everything compacted so far, from the first step's start.
    const span = [compactions[1]!.earliestAt!, compactions[1]!.latestAt!].map((t) =>
      timestampDate(t).toISOString(),
    );
    expect(span).toEqual([minute(0), minute(4)].map((t) => new Date(t).toISOString()));
    expect(compactions[0]!.createdAt).toBeDefined();
  });

  it('answers none for a conversation never compacted', async () => {
    expect((await list(c.fresh)).compactions).toEqual([]);
  });

  it('does not find another tenant’s conversation, or one that does not exist', async () => {
    expect(await rpcFailure(rpc, Rpcs.compactionsList, { conversationId: c.theirs })).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await rpcFailure(rpc, Rpcs.compactionsList, { conversationId: c.chat }, 'globex')).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await rpcFailure(rpc, Rpcs.compactionsList, { conversationId: '999999' })).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await list(c.theirs, 'globex')).compactions.map((s) => s.content)).toEqual([
      'Globex vault combination is 7734.',
    ]);
  });

  it('refuses a bad or missing conversation id with a violation naming it', async () => {
    expect(await rpcFailure(rpc, Rpcs.compactionsList, { conversationId: 'chat-7' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: {
        fieldViolations: [{ field: 'conversationId', description: '"chat-7" is not a conversation id' }],
      },
    });
    expect(await rpcFailure(rpc, Rpcs.compactionsList, {})).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
