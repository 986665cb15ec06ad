import type { Client } from 'pg';
import { Rpcs, timestampDate, type SummaryNode } from '@engram/contracts';
import type { RpcClient } from '@engram/messaging';
import { rpcFailure, startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

/**
 * mem.rpc.summaries.list over one conversation's tree as the compactor leaves it — a root over
 * two branches over three leaves over six messages, plus a leaf not yet under a branch — an
 * empty conversation, and another tenant's conversation.
 */
describe('mem.rpc.summaries.list (real Postgres and NATS)', () => {
  let retrieval: ServiceUnderTest;
  let rpc: RpcClient;
  let admin: Client;
  const c: Record<'chat' | 'empty' | 'theirs', string> = {} as never;
  const m: string[] = [];
  const s: Record<'root' | 'b1' | 'b2' | 'l1' | 'l2' | 'l3' | 'loose', string> = {} as never;
  const hour = (h: number) => new Date(Date.parse('2026-05-01T09:00:00Z') + h * 3_600_000).toISOString();

  const one = async (text: string, params: unknown[]) => String((await admin.query(text, params)).rows[0].id);

  async function summary(
    tenant: string,
    conversationId: string,
    depth: number,
    [from, to]: [number, number],
    children: Array<['message' | 'summary', string]>,
  ) {
    const id = await one(
      `INSERT INTO summaries (tenant_id, conversation_id, agent, depth, content, earliest_at, latest_at, message_count, token_estimate, model)
       VALUES ($1, $2, 'helper', $3, $4, $5, $6, $7, 20, 'test') RETURNING id`,
      [
        tenant,
        conversationId,
        depth,
        `summary at depth ${depth} from ${from}h`,
        hour(from),
        hour(to),
        2 * (to - from),
      ],
    );
    // Written last child first: the answer's order is the ordinal's, not the rows'.
    for (const [i, [kind, child]] of [...children.entries()].reverse())
      await admin.query(
        `INSERT INTO summary_sources (tenant_id, summary_id, source_kind, source_id, ordinal) VALUES ($1, $2, $3, $4, $5)`,
        [tenant, id, kind, child, i],
      );
    return id;
  }

  async function seed(client: Client) {
    admin = client;
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    const conversation = (tenant: string, key: string) =>
      one(
        `INSERT INTO conversations (tenant_id, agent, session_key) VALUES ($1, 'helper', $2) RETURNING id`,
        [tenant, key],
      );
    c.chat = await conversation('acme', 'chat');
    c.empty = await conversation('acme', 'empty');
    c.theirs = await conversation('globex', 'theirs');
    for (let i = 0; i < 8; i++)
      m.push(
        await one(
          `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
           VALUES ('acme', $1, 'helper', $2, 0, $3, 'user', $4, 10, $5) RETURNING id`,
          [c.chat, `t${i}`, 100 + i, `message ${i}`, hour(i / 2)],
        ),
      );
    const messages = (...i: number[]) => i.map((n) => ['message', m[n]!] as ['message', string]);
    const summaries = (...ids: string[]) => ids.map((id) => ['summary', id] as ['summary', string]);
    // Leaves written out of time order: the answer orders each level by its span.
    s.l3 = await summary('acme', c.chat, 0, [2, 3], messages(4, 5));
    s.l1 = await summary('acme', c.chat, 0, [0, 1], messages(1, 0));
    s.l2 = await summary('acme', c.chat, 0, [1, 2], messages(2, 3));
    s.loose = await summary('acme', c.chat, 0, [3, 4], messages(6, 7));
    s.b2 = await summary('acme', c.chat, 1, [2, 3], summaries(s.l3));
    s.b1 = await summary('acme', c.chat, 1, [0, 2], summaries(s.l2, s.l1));
    s.root = await summary('acme', c.chat, 2, [0, 3], summaries(s.b1, s.b2));
    await summary('globex', c.theirs, 0, [0, 1], []);
  }

  const tree = (conversationId: string, tenantId = 'acme') =>
    rpc.call(Rpcs.summariesList, { conversationId }, { tenantId });

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'summary-tree',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      seed,
    });
    ({ rpc } = retrieval);
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  it('answers every summary, roots first and each level by its span, with children in their order', async () => {
    const { summaries } = await tree(c.chat);
    expect(summaries.map((n) => n.id)).toEqual([s.root, s.b1, s.b2, s.l1, s.l2, s.l3, s.loose]);
    const byId = new Map<string, SummaryNode>(summaries.map((n) => [n.id, n]));
    expect(byId.get(s.root)).toMatchObject({ depth: 2, children: [s.b1, s.b2], messageIds: [] });
    expect(byId.get(s.b1)).toMatchObject({ depth: 1, children: [s.l2, s.l1], messageIds: [] });
    expect(byId.get(s.l1)).toMatchObject({
      depth: 0,
      content: 'summary at depth 0 from 0h',
      messageCount: 2n,
      children: [],
      messageIds: [m[1], m[0]],
    });
    const leaf = byId.get(s.l3)!;
    expect(
      [timestampDate(leaf.earliestAt!), timestampDate(leaf.latestAt!)].map((d) => d.toISOString()),
    ).toEqual(['2026-05-01T11:00:00.000Z', '2026-05-01T12:00:00.000Z']);
  });

  it('answers no summaries for a conversation not yet compacted', async () => {
    expect((await tree(c.empty)).summaries).toEqual([]);
  });

  it('does not find another tenant’s conversation, or one that does not exist', async () => {
    expect(await rpcFailure(rpc, Rpcs.summariesList, { conversationId: c.theirs })).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await rpcFailure(rpc, Rpcs.summariesList, { conversationId: c.chat }, 'globex')).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await rpcFailure(rpc, Rpcs.summariesList, { conversationId: '999999' })).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await tree(c.theirs, 'globex')).summaries).toHaveLength(1);
  });

  it('refuses a bad or missing conversation id with a violation naming it', async () => {
    expect(await rpcFailure(rpc, Rpcs.summariesList, { conversationId: 'chat-7' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: {
        fieldViolations: [{ field: 'conversationId', description: '"chat-7" is not a conversation id' }],
      },
    });
    expect(await rpcFailure(rpc, Rpcs.summariesList, {})).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
