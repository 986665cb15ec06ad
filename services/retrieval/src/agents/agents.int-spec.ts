import type { Client } from 'pg';
import { Rpcs, timestampDate } from '@engram/contracts';
import type { RpcClient } from '@engram/messaging';
import { rpcFailure, startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

describe('mem.rpc.agents.list (real Postgres and NATS)', () => {
  let retrieval: ServiceUnderTest;
  let rpc: RpcClient;

  /** A being's two root clusters, as ensureBeing makes them; returns the private root's id. */
  async function being(admin: Client, tenant: string, agent: string): Promise<string> {
    await admin.query(`INSERT INTO beings (tenant_id, agent) VALUES ($1, $2)`, [tenant, agent]);
    const rows = await admin.query<{ id: string; root: string }>(
      `INSERT INTO clusters (id, tenant_id, agent, name, root, parent_id)
         SELECT n.id, $1, $2, n.name, n.root, n.id
           FROM (SELECT nextval(pg_get_serial_sequence('clusters', 'id')) AS id, r.name, r.root
                   FROM (VALUES ('Business', 'business'), ('Private', 'private')) r (name, root)) n
       RETURNING id::text, root`,
      [tenant, agent],
    );
    return rows.rows.find((r) => r.root === 'private')!.id;
  }

  /**
   * acme: "helper" with a profile, two conversations (counters as ingest keeps them), open and
   * closed facts and live and dead scene nodes; "profiled" with only a profile; "factual" with
   * only a fact; "dreamer" with only being memory. globex: "spy", which acme must not see.
   */
  async function seed(admin: Client) {
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    await admin.query(
      `INSERT INTO agents (tenant_id, agent, name, personality, job, tools, model) VALUES
         ('acme', 'helper', 'Ada', 'Patient and exact', 'Support engineer', '{web_search,calendar}', 'gpt-4o'),
         ('acme', 'profiled', 'Bea', NULL, NULL, '{}', NULL),
         ('globex', 'spy', 'Eve', NULL, 'Spy', '{}', NULL)`,
    );
    const conversations = await admin.query<{ id: string; session_key: string }>(
      `INSERT INTO conversations (tenant_id, agent, session_key, message_count, first_message_at, last_message_at) VALUES
         ('acme', 'helper', 'a', 3, '2026-03-01T10:00Z', '2026-03-01T10:05Z'),
         ('acme', 'helper', 'b', 4, '2026-03-05T10:00Z', '2026-03-05T11:00Z'),
         ('globex', 'spy', 'c', 9, '2026-03-09T10:00Z', '2026-03-09T10:00Z')
       RETURNING id::text, session_key`,
    );
    const conversation = (key: string) => conversations.rows.find((r) => r.session_key === key)!.id;
    await admin.query(
      `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key,
                          conversation_id, valid_from, valid_to)
       VALUES ('acme', 'helper', 'likes tea', 'preference', 'sticky', 5, 'tag', 'k1', $1, now(), NULL),
              ('acme', 'helper', 'ships on friday', 'decision', 'sticky', 5, 'tag', 'k2', $1, now(), NULL),
              ('acme', 'helper', 'likes coffee', 'preference', 'sticky', 5, 'tag', 'k3', $1, now() - interval '1 day', now()),
              ('acme', 'factual', 'knows rust', 'fact', 'sticky', 5, 'saved', 'k4', NULL, now(), NULL),
              ('globex', 'spy', 'a secret', 'fact', 'sticky', 5, 'saved', 'k5', $2, now(), NULL)`,
      [conversation('a'), conversation('c')],
    );
    const helperRoot = await being(admin, 'acme', 'helper');
    await being(admin, 'acme', 'dreamer');
    await admin.query(
      `INSERT INTO memory_nodes (tenant_id, agent, cluster_id, scene, status) VALUES
         ('acme', 'helper', $1, '{"action":"walked","actors":[]}', 'active'),
         ('acme', 'helper', $1, '{"action":"slept","actors":[]}', 'dying'),
         ('acme', 'helper', $1, '{"action":"forgot","actors":[]}', 'dead')`,
      [helperRoot],
    );
  }

  const list = (request: Parameters<RpcClient['call']>[1], tenantId = 'acme') =>
    rpc.call(Rpcs.agentsList, request as never, { tenantId });

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'agents',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      seed,
    });
    ({ rpc } = retrieval);
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  it('answers every agent of the tenant by name, whatever made it one', async () => {
    const answer = await list({});
    expect(answer.agents.map((a) => a.agent)).toEqual(['dreamer', 'factual', 'helper', 'profiled']);
    expect(answer.total).toBe(4n);
  });

  it('merges the profile with the counts and the last activity', async () => {
    const helper = (await list({})).agents.find((a) => a.agent === 'helper')!;
    expect(helper).toMatchObject({
      messages: 7n,
      conversations: 2n,
      openFacts: 2n, // the closed one is not counted
      sceneNodes: 2n, // active and dying, not dead
      profile: {
        agent: 'helper',
        name: 'Ada',
        personality: 'Patient and exact',
        job: 'Support engineer',
        tools: ['web_search', 'calendar'],
        model: 'gpt-4o',
      },
    });
    expect(timestampDate(helper.lastMessageAt!).toISOString()).toBe('2026-03-05T11:00:00.000Z');
  });

  it('lists an agent with only a profile, only facts or only being memory, with zero counts elsewhere', async () => {
    const byName = new Map((await list({})).agents.map((a) => [a.agent, a]));
    expect(byName.get('profiled')).toMatchObject({ messages: 0n, conversations: 0n, openFacts: 0n });
    expect(byName.get('profiled')!.profile?.name).toBe('Bea');
    expect(byName.get('profiled')!.lastMessageAt).toBeUndefined();
    expect(byName.get('factual')).toMatchObject({ openFacts: 1n, messages: 0n });
    expect(byName.get('factual')!.profile).toBeUndefined();
    expect(byName.get('dreamer')).toMatchObject({ sceneNodes: 0n, openFacts: 0n });
  });

  it('keeps tenants apart', async () => {
    const globex = await list({}, 'globex');
    expect(globex.agents.map((a) => a.agent)).toEqual(['spy']);
    expect(globex.agents[0]).toMatchObject({ messages: 9n, conversations: 1n, openFacts: 1n });
    expect((await list({})).agents.some((a) => a.agent === 'spy')).toBe(false);
    expect((await list({}, 'initech')).agents).toEqual([]);
  });

  it('pages, and counts every agent on any page', async () => {
    const second = await list({ limit: 2, offset: 1 });
    expect(second.agents.map((a) => a.agent)).toEqual(['factual', 'helper']);
    expect(second.total).toBe(4n);
    const past = await list({ limit: 2, offset: 10 });
    expect(past.agents).toEqual([]);
    expect(past.total).toBe(4n);
  });

  it('refuses a bad field with a violation naming it', async () => {
    expect(await rpcFailure(rpc, Rpcs.agentsList, { limit: 5000 })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: {
        fieldViolations: [
          { field: 'limit', description: 'limit must be between 1 and 1000, or 0 for 100 (got 5000)' },
        ],
      },
    });
  });
});
