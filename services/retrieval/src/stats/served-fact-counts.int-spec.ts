import type { Client } from 'pg';
import { Rpcs, type StatsResponse } from '@engram/contracts';
import { startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';
import { MemoryIndex } from '../search/index/memory-index.service';

/**
 * The counts retrieval reports (memory_stats' factsByCategory, mem.rpc.agents.list's openFacts)
 * are of the facts it serves: the facts in force, as memory_search and mem.rpc.facts.list answer
 * them. Seeded: two facts in force, one expired, one superseded and one forgotten (and an agent
 * whose only facts are closed or expired, which has no memory in use); on both search sources.
 */
describe.each([
  ['the in-memory index', 'index', {}],
  ['Postgres', 'sql', { RETRIEVAL_INDEX_MEMORY_MB: '0' }],
] as const)('counts of facts agree with what is served, search answered by %s', (_name, path, config) => {
  let retrieval: ServiceUnderTest;

  async function seed(admin: Client): Promise<void> {
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme')`);
    /** A fact said 40 days ago, valid to `closedAt` and expiring at `expiresAt` (SQL expressions). */
    const fact = async (
      agent: string,
      key: string,
      category: string,
      content: string,
      closedAt = 'NULL',
      expiresAt = `now() + interval '10 days'`,
    ) =>
      (
        await admin.query<{ id: string }>(
          `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key,
                              valid_from, valid_to, expires_at)
           VALUES ('acme', $1, $2, $3, 'project_context', 6, 'saved', $4, now() - interval '40 days',
                   ${closedAt}, ${expiresAt})
           RETURNING id::text`,
          [agent, content, category, key],
        )
      ).rows[0]!.id;
    const dayAgo = `now() - interval '1 day'`;
    const lisbon = await fact('helper', 'in-force-1', 'fact', 'Ada lives in Lisbon with a cat.');
    await fact('helper', 'in-force-2', 'preference', 'Ada likes her coffee black.');
    await fact('helper', 'expired', 'task', 'Ada must renew her passport.', 'NULL', dayAgo);
    const porto = await fact('helper', 'superseded', 'fact', 'Ada lives in Porto.', dayAgo);
    await admin.query(`UPDATE facts SET superseded_by = $1 WHERE id = $2`, [lisbon, porto]);
    await fact('helper', 'forgotten', 'preference', 'Ada likes tea.', dayAgo);
    await fact('ghost', 'ghost-expired', 'fact', 'Ada once met a ghost.', 'NULL', dayAgo);
    await fact('ghost', 'ghost-forgotten', 'fact', 'Ada saw a ghost.', dayAgo);
  }

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: `served-fact-counts-${path}`,
      loadConfig: loadRetrievalConfig,
      module: (c) => RetrievalModule.register(c),
      // No Gerty: full text, at once.
      config: { SEARCH_EMBED_TIMEOUT_MS: '50', ...config },
      seed,
    });
    if (path === 'index') expect(await retrieval.apps[0]!.get(MemoryIndex).load('acme')).not.toBeNull();
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  const acme = { tenantId: 'acme' };

  /** Per category, how many facts a list of them holds. */
  const byCategory = (categories: readonly string[]) => {
    const counts: Record<string, number> = {};
    for (const c of categories) counts[c] = (counts[c] ?? 0) + 1;
    return counts;
  };
  /** The non-zero counts of memory_stats' factsByCategory. */
  const counted = (stats: StatsResponse) =>
    Object.fromEntries(
      Object.entries(stats.factsByCategory)
        .filter(([, n]) => n > 0n)
        .map(([c, n]) => [c, Number(n)]),
    );

  it("counts an agent's facts as search and the facts list serve them: in force, not expired, superseded or forgotten", async () => {
    const search = await retrieval.rpc.call(
      Rpcs.search,
      {
        query: 'Ada',
        topK: 50,
        expand: false,
        recordAccess: false,
        filters: { agent: 'helper', kinds: ['fact'] },
      },
      acme,
    );
    expect(search.answeredBy).toBe(path);
    const listed = await retrieval.rpc.call(Rpcs.factsList, { agents: ['helper'], limit: 100 }, acme);
    const stats = await retrieval.rpc.call(Rpcs.statsGet, { agent: 'helper' }, acme);
    const agents = await retrieval.rpc.call(Rpcs.agentsList, {}, acme);
    const helper = agents.agents.find((a) => a.agent === 'helper')!;

    const served = search.hits.map((h) => h.content).sort();
    expect(served).toEqual(['Ada likes her coffee black.', 'Ada lives in Lisbon with a cat.']);
    expect(listed.facts.map((f) => f.content).sort()).toEqual(served);
    expect(Number(listed.total)).toBe(served.length);
    expect(counted(stats)).toEqual(byCategory(listed.facts.map((f) => f.category)));
    expect(Number(helper.openFacts)).toBe(served.length);
  });

  it('counts the tenant as it counts each agent, and lists no agent whose facts are all closed or expired', async () => {
    const listed = await retrieval.rpc.call(Rpcs.factsList, { limit: 100 }, acme);
    const stats = await retrieval.rpc.call(Rpcs.statsGet, {}, acme);
    const agents = await retrieval.rpc.call(Rpcs.agentsList, {}, acme);
    expect(counted(stats)).toEqual(byCategory(listed.facts.map((f) => f.category)));
    expect(agents.agents.map((a) => [a.agent, Number(a.openFacts)])).toEqual([['helper', 2]]);
    const ghost = await retrieval.rpc.call(
      Rpcs.search,
      {
        query: 'ghost',
        expand: false,
        recordAccess: false,
        filters: { agent: 'ghost', kinds: ['fact'] },
      },
      acme,
    );
    expect(ghost.hits).toEqual([]);
  });
});
