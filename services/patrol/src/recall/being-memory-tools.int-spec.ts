import { Rpcs, type RpcSpec } from '@engram/contracts';
import type { RpcClient } from '@engram/messaging';
import { ensureBeing, TenantTransactions, type BeingRoots } from '@engram/store';
import { startServiceUnderTest, type ServiceUnderTest, rpcFailure } from '@engram/testing';
import { loadPatrolConfig } from '../patrol.config';
import { PatrolModule } from '../patrol.module';

interface Seed {
  readonly action: string;
  readonly feeling?: string | null;
  /** The scene's own feeling (the node's column wins when both are there). */
  readonly sceneFeeling?: string;
  readonly themes?: string[];
  readonly when?: unknown[];
  readonly status?: string;
  /** Days ago; null for never. */
  readonly activated?: number | null;
  readonly absorbedInto?: string;
}

/** mem.rpc.being.clusters.recall and mem.rpc.being.nodes.search against real NATS and Postgres. */
describe('a being’s recall_memory and search_memory (real Postgres and NATS)', () => {
  let patrol: ServiceUnderTest;
  let rpc: RpcClient;
  const acme = { tenantId: 'acme' };
  /** Each seeded node's last_activated, restored before every test (each call moves it). */
  const seeded = new Map<string, number | null>();

  const failureOf = (spec: RpcSpec, request: Parameters<RpcClient['call']>[1], tenantId?: string) =>
    rpcFailure(rpc, spec, request, tenantId);

  const being = (tenantId: string, agent: string): Promise<BeingRoots> =>
    patrol.apps[0]!.get(TenantTransactions).run(tenantId, (manager) => ensureBeing(manager, tenantId, agent));

  const node = async (tenantId: string, agent: string, clusterId: string, seed: Seed): Promise<string> => {
    const activated = seed.activated === undefined ? 5 : seed.activated;
    const [row] = await patrol.sql<{ id: string }>(
      `INSERT INTO memory_nodes (tenant_id, agent, cluster_id, scene, feeling, themes, status, absorbed_into, last_activated)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() - make_interval(days => $9::int)) RETURNING id::text AS id`,
      [
        tenantId,
        agent,
        clusterId,
        JSON.stringify({
          action: seed.action,
          actors: ['me'],
          when: seed.when ?? [],
          ...(seed.sceneFeeling && { feeling: seed.sceneFeeling }),
        }),
        seed.feeling === undefined ? 'content' : seed.feeling,
        seed.themes ?? [],
        seed.status ?? 'active',
        seed.absorbedInto ?? null,
        activated,
      ],
    );
    seeded.set(row!.id, activated);
    return row!.id;
  };

  const counts = async (ids: readonly string[]) =>
    Object.fromEntries(
      (
        await patrol.sql<{ id: string; reactivation_count: number }>(
          `SELECT id::text AS id, reactivation_count FROM memory_nodes WHERE id = ANY($1::bigint[])`,
          [ids],
        )
      ).map((r) => [r.id, r.reactivation_count]),
    );

  beforeAll(async () => {
    patrol = await startServiceUnderTest({
      label: 'being_memory_tools',
      loadConfig: loadPatrolConfig,
      module: (config) => PatrolModule.register(config),
    });
    rpc = patrol.rpc;
  });

  beforeEach(async () => {
    for (const [id, days] of seeded)
      await patrol.sql(
        `UPDATE memory_nodes SET last_activated = now() - make_interval(days => $2::int) WHERE id = $1`,
        [id, days],
      );
  });

  afterAll(async () => {
    await patrol?.stop();
  });

  describe('recall_memory', () => {
    let roots: BeingRoots;
    let lakes: string;
    let empty: string;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      roots = await being('acme', 'mia');
      [{ id: lakes }, { id: empty }] = await patrol.sql<{ id: string }>(
        `INSERT INTO clusters (tenant_id, agent, name, parent_id)
         VALUES ('acme', 'mia', 'Lakes', $1), ('acme', 'mia', 'Empty', $1) RETURNING id::text AS id`,
        [roots.private],
      );
      ids['active'] = await node('acme', 'mia', lakes, { action: 'swam across' });
      ids['dying'] = await node('acme', 'mia', lakes, { action: 'saw herons', status: 'dying' });
      ids['dead'] = await node('acme', 'mia', lakes, { action: 'lost a shoe', status: 'dead' });
      ids['merged'] = await node('acme', 'mia', lakes, {
        action: 'swam again',
        status: 'dead',
        absorbedInto: ids['active'],
      });
      ids['root'] = await node('acme', 'mia', roots.private, { action: 'in the root' });
    });

    it('answers every scene of the cluster, oldest first; active and dying count once more, dead twice', async () => {
      const before = await counts(Object.values(ids));
      const reply = await rpc.call(Rpcs.beingClustersRecall, { agent: 'mia', clusterId: lakes }, acme);
      expect(reply.nodes.map((n) => [n.action, n.status, n.clusterId])).toEqual([
        ['swam across', 'active', lakes],
        ['saw herons', 'dying', lakes],
        ['lost a shoe', 'dead', lakes],
      ]);
      expect(reply.nodes.map((n) => n.reactivationCount)).toEqual([1, 1, 2]);
      expect(await counts(Object.values(ids))).toEqual({
        ...before,
        [ids['active']!]: 1,
        [ids['dying']!]: 1,
        [ids['dead']!]: 2,
      });
      // A root answers its own scenes, not its sub-clusters'.
      const root = await rpc.call(Rpcs.beingClustersRecall, { agent: 'mia', clusterId: roots.private }, acme);
      expect(root.nodes.map((n) => n.action)).toEqual(['in the root']);
    });

    it('answers no scenes for an empty cluster of the being', async () => {
      expect(
        (await rpc.call(Rpcs.beingClustersRecall, { agent: 'mia', clusterId: empty }, acme)).nodes,
      ).toEqual([]);
    });

    it('answers NOT_FOUND for another being’s cluster, another tenant’s, or none, bumping nothing', async () => {
      const leo = await being('acme', 'leo');
      const leoNode = await node('acme', 'leo', leo.private, { action: 'leo swam' });
      const globex = await being('globex', 'mia');
      const globexNode = await node('globex', 'mia', globex.private, { action: 'globex swam' });
      for (const clusterId of [leo.private, globex.private, '987654321']) {
        const error = await failureOf(Rpcs.beingClustersRecall, { agent: 'mia', clusterId });
        expect({ clusterId, code: error.code }).toEqual({ clusterId, code: 'NOT_FOUND' });
      }
      expect(await counts([leoNode, globexNode])).toEqual({ [leoNode]: 0, [globexNode]: 0 });
    });

    it('refuses a bad cluster id with INVALID_ARGUMENT naming it', async () => {
      expect(
        (await failureOf(Rpcs.beingClustersRecall, { agent: 'mia', clusterId: 'lakes' })).details,
      ).toEqual({
        fieldViolations: [{ field: 'clusterId', description: '"lakes" is not a cluster id' }],
      });
    });
  });

  describe('search_memory', () => {
    const ids: Record<string, string> = {};
    const search = async (keywords: string[], more: { match?: string; limit?: number } = {}) =>
      (await rpc.call(Rpcs.beingNodesSearch, { agent: 'sam', keywords, ...more }, acme)).nodes.map(
        (n) => n.action,
      );

    beforeAll(async () => {
      const roots = await being('acme', 'sam');
      const at = roots.private;
      ids['rye'] = await node('acme', 'sam', at, {
        action: 'Baked RYE Bread',
        feeling: 'proud',
        themes: ['baking'],
        when: ['2026-11-02'],
        activated: 3,
      });
      ids['lake'] = await node('acme', 'sam', at, {
        action: 'walked to the lake',
        feeling: 'calm',
        themes: ['nature', 'bread crumbs'],
        when: ['2026-10-08', { date: '2026-10-01', action: 'fed the ducks' }],
        activated: 1,
      });
      ids['bike'] = await node('acme', 'sam', at, {
        action: 'fixed the bike',
        feeling: null,
        sceneFeeling: 'annoyed 50% of the time',
        when: ['2025-12-24'],
        status: 'dead',
        activated: null,
      });
      ids['maker'] = await node('acme', 'sam', at, { action: 'the bread_maker broke', activated: 10 });
      await node('acme', 'sam', at, {
        action: 'bread merged away',
        status: 'dead',
        absorbedInto: ids['rye'],
      });
      await node('acme', 'leo', (await being('acme', 'leo')).private, { action: 'leo bread' });
      await node('acme', 'tom', (await being('acme', 'tom')).private, { action: 'tom bread' });
      await node('globex', 'sam', (await being('globex', 'sam')).private, { action: 'globex bread' });
    });

    it('finds any keyword, case-insensitively, in actions, themes and when; most recently activated first', async () => {
      expect(await search(['bread'])).toEqual([
        'walked to the lake',
        'Baked RYE Bread',
        'the bread_maker broke',
      ]);
      expect(await search(['rye'], { match: 'or' })).toEqual(['Baked RYE Bread']);
      // A merged item's action, a plain date, a merged item's date.
      expect(await search(['DUCKS'])).toEqual(['walked to the lake']);
      expect(await search(['2025-12'])).toEqual(['fixed the bike']);
      expect(await search(['2026-10-01'])).toEqual(['walked to the lake']);
    });

    it('finds the node’s feeling, else the scene’s', async () => {
      expect(await search(['calm'])).toEqual(['walked to the lake']);
      expect(await search(['annoyed'])).toEqual(['fixed the bike']);
    });

    it('puts scenes matching more keywords first', async () => {
      expect(await search(['bread', 'lake', 'maker'])).toEqual([
        'walked to the lake',
        'the bread_maker broke',
        'Baked RYE Bread',
      ]);
    });

    it('with "and" wants every keyword, each anywhere in those fields', async () => {
      expect(await search(['bread', 'ducks'], { match: 'and' })).toEqual(['walked to the lake']);
      expect(await search(['bread', 'baking', '2026-11'], { match: 'and' })).toEqual(['Baked RYE Bread']);
      expect(await search(['rye', 'calm'], { match: 'and' })).toEqual([]);
    });

    it('takes %, _ and \\ in a keyword literally', async () => {
      expect(await search(['_'])).toEqual(['the bread_maker broke']);
      expect(await search(['50%'])).toEqual(['fixed the bike']);
      expect(await search(['%'])).toEqual(['fixed the bike']);
      expect(await search(['\\'])).toEqual([]);
    });

    it('answers at most the limit', async () => {
      expect(await search(['bread'], { limit: 2 })).toEqual(['walked to the lake', 'Baked RYE Bread']);
    });

    it('counts what it finds as recalled: once, a dead scene twice', async () => {
      const before = await counts(Object.values(ids));
      const reply = await rpc.call(Rpcs.beingNodesSearch, { agent: 'sam', keywords: ['bike', 'rye'] }, acme);
      expect(reply.nodes.map((n) => [n.action, n.status])).toEqual([
        ['Baked RYE Bread', 'active'],
        ['fixed the bike', 'dead'],
      ]);
      expect(await counts(Object.values(ids))).toEqual({
        ...before,
        [ids['rye']!]: before[ids['rye']!]! + 1,
        [ids['bike']!]: before[ids['bike']!]! + 2,
      });
      const [rye] = await patrol.sql<{ recent: boolean }>(
        `SELECT last_activated > now() - interval '1 minute' AS recent FROM memory_nodes WHERE id = $1`,
        [ids['rye']],
      );
      expect(rye!.recent).toBe(true);
    });

    it('keeps two beings of one tenant, and two tenants, apart', async () => {
      const of = async (agent: string, tenantId: string) =>
        (await rpc.call(Rpcs.beingNodesSearch, { agent, keywords: ['bread'] }, { tenantId })).nodes.map(
          (n) => n.action,
        );
      expect(await of('leo', 'acme')).toEqual(['leo bread']);
      expect(await of('sam', 'globex')).toEqual(['globex bread']);
      expect(await of('sam', 'initech')).toEqual([]);
    });

    it('refuses a bad match with INVALID_ARGUMENT naming it', async () => {
      expect(
        (await failureOf(Rpcs.beingNodesSearch, { agent: 'sam', keywords: ['bread'], match: 'xor' })).details,
      ).toEqual({
        fieldViolations: [{ field: 'match', description: 'match must be one of or, and (got "xor")' }],
      });
    });
  });
});
