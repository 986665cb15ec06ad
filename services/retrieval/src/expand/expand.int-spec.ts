import type { Client } from 'pg';
import { Rpcs, type ExpandResponse, type SearchHit } from '@engram/contracts';
import { RpcError, type RpcClient } from '@engram/messaging';
import { startServiceUnderTest, waitFor, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

/** Twelve turns of one conversation; turns 6 and 7 were said at the same instant (one turn, two messages). */
const CHAT = [
  'Hi, I am Ada and I just moved to Lisbon.',
  'Welcome, Ada! How is the new flat?',
  'Bright, with a balcony over the river.',
  'Lovely. Any pets?',
  'Two cats, Bailey and Oliver.',
  'Do they like the balcony?',
  'They sit there all day watching gulls.',
  'Gulls can be loud in the morning.',
  'Yes, they wake me at six.',
  'The Postgres migration failed on the old credentials.',
  'Rotate them in the vault and rerun the job.',
  'Done, it works now.',
];

/**
 * mem.rpc.expand over one conversation's summary tree — a root over two branches over three
 * leaves over the twelve messages — facts with their sources, and another tenant's memory.
 */
describe('mem.rpc.expand (real Postgres and NATS)', () => {
  let retrieval: ServiceUnderTest;
  let rpc: RpcClient;
  let admin: Client;
  let conversationId: string;
  const m: string[] = [];
  const s: Record<'root' | 'b1' | 'b2' | 'l1' | 'l2' | 'l3', string> = {} as never;
  const f: Record<'old' | 'new', string> = {} as never;
  const globex: Record<'message' | 'summary' | 'fact', string> = {} as never;
  const base = Date.parse('2026-05-01T09:00:00Z');

  const one = async (text: string, params: unknown[]) => String((await admin.query(text, params)).rows[0].id);

  async function summary(depth: number, content: string, children: Array<['message' | 'summary', string]>) {
    const id = await one(
      `INSERT INTO summaries (tenant_id, conversation_id, agent, depth, content, earliest_at, latest_at, message_count, token_estimate, model)
       VALUES ('acme', $1, 'helper', $2, $3, $4, $5, 4, 20, 'test') RETURNING id`,
      [
        conversationId,
        depth,
        content,
        new Date(base).toISOString(),
        new Date(base + 3_600_000).toISOString(),
      ],
    );
    // Written last child first: the answer's order is the ordinal's, not the rows'.
    for (const [i, [kind, child]] of [...children.entries()].reverse())
      await admin.query(
        `INSERT INTO summary_sources (tenant_id, summary_id, source_kind, source_id, ordinal) VALUES ('acme', $1, $2, $3, $4)`,
        [id, kind, child, i],
      );
    return id;
  }

  async function seed(client: Client) {
    admin = client;
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    conversationId = await one(
      `INSERT INTO conversations (tenant_id, agent, session_key, channel, message_count, token_estimate)
       VALUES ('acme', 'helper', 's1', 'web', ${CHAT.length}, ${CHAT.length * 10}) RETURNING id`,
      [],
    );
    for (const [i, content] of CHAT.entries()) {
      const turn = i === 7 ? 6 : i; // the seventh turn holds two messages, at one instant
      m.push(
        await one(
          `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, author, content, token_estimate, created_at)
           VALUES ('acme', $1, 'helper', $2, $3, $4, $5, $6, $7, 10, $8) RETURNING id`,
          [
            conversationId,
            `t${turn}`,
            i === 7 ? 1 : 0,
            100 + turn,
            i % 2 ? 'assistant' : 'user',
            i % 2 ? 'Engram' : 'Ada',
            content,
            new Date(base + turn * 60_000).toISOString(),
          ],
        ),
      );
    }
    const leaf = (from: number) =>
      m.slice(from, from + 4).map((id) => ['message', id] as ['message', string]);
    s.l1 = await summary(0, 'Ada moved to Lisbon: a bright flat over the river.', leaf(0));
    s.l2 = await summary(0, 'Her cats Bailey and Oliver watch gulls from the balcony.', leaf(4));
    s.l3 = await summary(0, 'A failed Postgres migration, fixed by rotating credentials.', leaf(8));
    s.b1 = await summary(1, 'Ada’s new home and cats.', [
      ['summary', s.l1],
      ['summary', s.l2],
    ]);
    s.b2 = await summary(1, 'Infrastructure work.', [['summary', s.l3]]);
    s.root = await summary(2, 'Ada: moving, cats, a migration.', [
      ['summary', s.b1],
      ['summary', s.b2],
    ]);
    const fact = (key: string, content: string, sources: string[]) =>
      one(
        `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key, conversation_id, source_message_ids, valid_from)
         VALUES ('acme', 'helper', $1, 'fact', 'sticky', 5, 'extracted', $2, $3, $4, $5) RETURNING id`,
        [content, key, conversationId, sources, new Date(base).toISOString()],
      );
    f.new = await fact('f-new', 'Ada has two cats, Bailey and Oliver.', [m[4]!]);
    f.old = await fact('f-old', 'Ada lives in Lisbon with a cat.', [m[4]!, m[0]!]); // cited out of order
    await admin.query(`UPDATE facts SET valid_to = now(), superseded_by = $1 WHERE id = $2`, [f.new, f.old]);

    const g = await one(
      `INSERT INTO conversations (tenant_id, agent, session_key) VALUES ('globex', 'helper', 'g1') RETURNING id`,
      [],
    );
    globex.message = await one(
      `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
       VALUES ('globex', $1, 'helper', 'g', 0, 1, 'user', 'Globex secret plans', 5, now()) RETURNING id`,
      [g],
    );
    globex.summary = await one(
      `INSERT INTO summaries (tenant_id, conversation_id, agent, depth, content, earliest_at, latest_at, message_count, token_estimate, model)
       VALUES ('globex', $1, 'helper', 0, 'Globex secrets', now(), now(), 1, 5, 'test') RETURNING id`,
      [g],
    );
    globex.fact = await one(
      `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key, valid_from)
       VALUES ('globex', 'helper', 'Globex plans a merger', 'fact', 'sticky', 5, 'saved', 'g', now()) RETURNING id`,
      [],
    );
  }

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'expand',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      seed,
    });
    rpc = retrieval.rpc;
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  const expand = (request: Parameters<RpcClient['call']>[1], tenantId = 'acme') =>
    rpc.call(Rpcs.expand, request, { tenantId }) as Promise<ExpandResponse>;
  const failure = (request: Parameters<RpcClient['call']>[1], tenantId = 'acme') =>
    expand(request, tenantId).then(
      () => null,
      (error: unknown) => error as RpcError,
    );
  /** Each item as "kind:id < expandedFrom". */
  const outline = (items: SearchHit[]) =>
    items.map((h) => `${h.kind}:${h.id}${h.expandedFrom ? ` < ${h.expandedFrom}` : ''}`);
  const msg = (i: number) => `message:${m[i]}`;
  const sum = (key: keyof typeof s) => `summary:${s[key]}`;

  it('drills a leaf down to its messages in order, each with its content and provenance', async () => {
    const res = await expand({ refs: [sum('l2')] });
    expect(outline(res.items)).toEqual([sum('l2'), ...[4, 5, 6, 7].map((i) => `${msg(i)} < ${sum('l2')}`)]);
    expect(res.truncated).toBe(false);
    expect(res.items[0]).toMatchObject({
      kind: 'summary',
      content: 'Her cats Bailey and Oliver watch gulls from the balcony.',
      score: 0,
      provenance: { agent: 'helper', conversationId, channel: 'web', depth: 0 },
    });
    expect(res.items.slice(1).map((h) => h.content)).toEqual(CHAT.slice(4, 8));
    expect(res.items[2]!.provenance).toMatchObject({ role: 'assistant', author: 'Engram', channel: 'web' });
    expect(Number(res.items[1]!.createdAt!.seconds) * 1000).toBe(base + 4 * 60_000);
  });

  it('drills a root through its branches and leaves to the depth asked (default: down to messages)', async () => {
    expect(outline((await expand({ refs: [sum('root')], depth: 1 })).items)).toEqual([
      sum('root'),
      `${sum('b1')} < ${sum('root')}`,
      `${sum('b2')} < ${sum('root')}`,
    ]);
    expect(outline((await expand({ refs: [sum('root')], depth: 2 })).items)).toEqual([
      sum('root'),
      `${sum('b1')} < ${sum('root')}`,
      `${sum('l1')} < ${sum('b1')}`,
      `${sum('l2')} < ${sum('b1')}`,
      `${sum('b2')} < ${sum('root')}`,
      `${sum('l3')} < ${sum('b2')}`,
    ]);
    const whole = await expand({ refs: [sum('root')] });
    expect(whole.items).toHaveLength(1 + 2 + 3 + 12);
    expect(whole.items.filter((h) => h.kind === 'message').map((h) => h.content)).toEqual(CHAT);
    expect(whole.items.find((h) => h.id === s.root)!.provenance!.depth).toBe(2);
  });

  it('shows a message between the two turns before and after it, and only what exists at the edge', async () => {
    expect(outline((await expand({ refs: [msg(6)] })).items)).toEqual([
      `${msg(4)} < ${msg(6)}`,
      `${msg(5)} < ${msg(6)}`,
      msg(6),
      `${msg(7)} < ${msg(6)}`, // same instant, later position
      `${msg(8)} < ${msg(6)}`,
    ]);
    expect(outline((await expand({ refs: [msg(11)] })).items)).toEqual([
      `${msg(9)} < ${msg(11)}`,
      `${msg(10)} < ${msg(11)}`,
      msg(11),
    ]);
  });

  it('follows a fact with its sources in the conversation’s order, then the fact that superseded it', async () => {
    const res = await expand({ refs: [`fact:${f.old}`] });
    expect(outline(res.items)).toEqual([
      `fact:${f.old}`,
      `${msg(0)} < fact:${f.old}`,
      `${msg(4)} < fact:${f.old}`,
      `fact:${f.new} < fact:${f.old}`,
    ]);
    expect(res.items[0]!.provenance!.sourceMessageIds).toEqual([m[4], m[0]]);
    expect(res.items[3]!.content).toBe('Ada has two cats, Bailey and Oliver.');
  });

  it('answers the refs in their order, each item once at its first place', async () => {
    const res = await expand({ refs: [msg(5), sum('l2'), `fact:${f.new}`] });
    expect(outline(res.items)).toEqual([
      `${msg(3)} < ${msg(5)}`,
      `${msg(4)} < ${msg(5)}`,
      msg(5),
      `${msg(6)} < ${msg(5)}`,
      `${msg(7)} < ${msg(5)}`,
      sum('l2'),
      `fact:${f.new}`,
    ]);
  });

  it('finds nothing of another tenant: its refs and unknown ones are NOT_FOUND, named, and nothing is answered', async () => {
    const foreign = [`message:${globex.message}`, `summary:${globex.summary}`, `fact:${globex.fact}`];
    const error = await failure({ refs: [sum('l1'), ...foreign, 'fact:999999'] });
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', details: { refs: [...foreign, 'fact:999999'] } });
    expect(error!.message).toContain(`summary:${globex.summary}`);
    // The owner expands them.
    const own = await expand({ refs: foreign }, 'globex');
    expect(own.items.map((h) => h.content)).toEqual([
      'Globex secret plans',
      'Globex secrets',
      'Globex plans a merger',
    ]);
  });

  it('refuses a malformed ref before anything runs, naming it', async () => {
    expect(await failure({ refs: [sum('l1'), 'message:abc'] })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: {
        fieldViolations: [
          {
            field: 'refs[1]',
            description: 'refs[1] "message:abc" is not a ref like "message:123", "summary:45" or "fact:6"',
          },
        ],
      },
    });
    expect(await failure({ refs: [] })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { fieldViolations: [{ field: 'refs' }] },
    });
  });

  it('records no access, and shows when a search last used an item', async () => {
    await expand({ refs: [sum('l3')] });
    // A search records what it returned; the expansions before it would have been recorded no later.
    const search = await rpc.call(
      Rpcs.search,
      { query: 'wake six', topK: 1, filters: { kinds: ['message'] } },
      { tenantId: 'acme' },
    );
    expect(search.hits.map((h) => h.id)).toEqual([m[8]]);
    await waitFor(
      'the search recorded as access',
      async () =>
        (await retrieval.count(
          `SELECT count(*) AS n FROM item_access WHERE item_kind = 'message' AND item_id = $1`,
          [m[8]],
        )) === 1,
      10_000,
    );
    const accessed = await retrieval.sql<{ ref: string }>(
      `SELECT item_kind || ':' || item_id AS ref FROM item_access`,
    );
    expect(accessed.map((a) => a.ref)).toEqual([msg(8)]);
    const around = await expand({ refs: [msg(8)] });
    expect(around.items.find((h) => h.id === m[8])!.lastAccessedAt).toBeDefined();
    expect(around.items.find((h) => h.id === m[7])!.lastAccessedAt).toBeUndefined();
  });
});
