import { Rpcs } from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import { TenantTransactions } from '@engram/store';
import { startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadPatrolConfig } from '../patrol.config';
import { PatrolModule } from '../patrol.module';
import { BeingRecallRepository } from './being-recall.repository';

/**
 * The recall tools over scenes the patrol made (real Gerty, built-in model): what comes back,
 * how it is counted (reactivation +1, dead +2), and that a recalled dead scene revives at the
 * next patrol. Two beings of one tenant never see each other's scenes.
 */
describe('being recall tools (real Postgres, NATS, Gerty on the built-in model)', () => {
  let patrol: ServiceUnderTest;
  let model: string;
  let dims: number;

  beforeAll(async () => {
    patrol = await startServiceUnderTest({
      label: 'recall',
      loadConfig: loadPatrolConfig,
      module: (config) => PatrolModule.register(config),
      processes: ['gerty'],
      config: { PATROL_EVERY_MS: '0' },
    });
    const embedded = await patrol.rpc.call(Rpcs.gertyEmbed, { texts: ['x'] }, { timeoutMs: 10_000 });
    model = embedded.model;
    dims = embedded.dimensions;
    await patrol.sql(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    const scenes: Array<[string, string, object]> = [
      [
        'acme',
        'mia',
        { action: 'baked sourdough bread with Mia in the kitchen', actors: ['me', 'Mia'], feeling: 'warm' },
      ],
      [
        'acme',
        'mia',
        { action: 'finished the quarterly budget report at the office', actors: ['me'], feeling: 'tired' },
      ],
      [
        'acme',
        'mia',
        { action: 'walked the dog along the river', actors: ['me'], when: ['2026-10-05'], feeling: 'calm' },
      ],
      ['acme', 'mia', { action: 'paid 100% of the rent', actors: ['me'] }],
      [
        'acme',
        'ben',
        { action: 'baked sourdough bread with Mia in the kitchen', actors: ['me'], feeling: 'warm' },
      ],
      [
        'globex',
        'mia',
        { action: 'baked sourdough bread with Mia in the kitchen', actors: ['me'], feeling: 'warm' },
      ],
    ];
    for (const [tenant, agent, scene] of scenes)
      await patrol.sql(
        `INSERT INTO notes (tenant_id, agent, kind, content, scene, themes) VALUES ($1, $2, 'scene', $3::text, $3::jsonb, $4)`,
        [
          tenant,
          agent,
          JSON.stringify(scene),
          agent === 'mia' && JSON.stringify(scene).includes('dog') ? ['pets'] : [],
        ],
      );
    for (const [tenant, agent] of [
      ['acme', 'mia'],
      ['acme', 'ben'],
      ['globex', 'mia'],
    ] as const)
      await patrol.rpc.call(Rpcs.patrolRun, { agent }, { tenantId: tenant, timeoutMs: 60_000 });
  });

  afterAll(() => patrol?.stop());

  const node = async (agent: string, action: string, tenant = 'acme') =>
    (
      await patrol.sql<{ id: string; reactivation_count: number; status: string; tenant_id: string }>(
        `SELECT id::text, reactivation_count, status, tenant_id FROM memory_nodes
          WHERE tenant_id = $1 AND agent = $2 AND scene ->> 'action' = $3`,
        [tenant, agent, action],
      )
    )[0]!;
  const BREAD = 'baked sourdough bread with Mia in the kitchen';

  it('recall brings back at most 3 scenes like the message, inside a memory tag, and counts each once', async () => {
    const before = await node('mia', BREAD);

    const answer = await patrol.rpc.call(
      Rpcs.beingRecall,
      { agent: 'mia', message: 'we baked sourdough bread in the kitchen' },
      { tenantId: 'acme', timeoutMs: 10_000 },
    );

    expect(answer.nodes.length).toBeGreaterThanOrEqual(1);
    expect(answer.nodes.length).toBeLessThanOrEqual(3);
    expect(answer.nodes[0]).toMatchObject({ action: BREAD, feeling: 'warm' });
    expect(answer.text).toMatch(/^<memory>.*<\/memory>$/);
    const parts = answer.text.slice('<memory>'.length, -'</memory>'.length).split(' / ');
    expect(parts.sort()).toEqual(
      answer.nodes.flatMap((n) => (n.feeling ? [n.action, n.feeling] : [n.action])).sort(),
    );
    expect((await node('mia', BREAD)).reactivation_count).toBe(before.reactivation_count + 1);
    // Only mia's scenes of acme: ben's and globex's copies of the same scene are not counted.
    expect((await node('ben', BREAD)).reactivation_count).toBe(0);
    expect((await node('mia', BREAD, 'globex')).reactivation_count).toBe(0);
  });

  it('recall returns nothing, and counts nothing, when no scene is similar enough', async () => {
    const recalls = patrol.apps[0]!.get(BeingRecallRepository);
    const [{ n: before }] = await patrol.sql<{ n: string }>(
      `SELECT sum(reactivation_count) AS n FROM memory_nodes`,
    );
    // A direction no scene points to: cosine 0 with every vector of the being.
    const nowhere = Array.from({ length: dims }, (_, i) => (i === 0 ? 1 : 0));
    await patrol.sql(
      `UPDATE memory_nodes SET embedding = $1::halfvec WHERE tenant_id = 'acme' AND agent = 'ben'`,
      [`[${Array.from({ length: dims }, (_, i) => (i === 1 ? 1 : 0)).join(',')}]`],
    );

    const transactions = patrol.apps[0]!.get(TenantTransactions);
    expect(await transactions.run('acme', (m) => recalls.recall(m, 'ben', nowhere, model))).toEqual([]);
    expect(
      (await patrol.sql<{ n: string }>(`SELECT sum(reactivation_count) AS n FROM memory_nodes`))[0]!.n,
    ).toBe(before);
  });

  it('a dead scene that is recalled comes back at the next patrol', async () => {
    const dog = await node('mia', 'walked the dog along the river');
    // Faded: importance 0.04 · e^0 · (1 + 0) ≤ 0.05, dead.
    await patrol.sql(
      `UPDATE memory_nodes SET status = 'dead', importance = 0.04, reactivation_count = 0, session_count = 0 WHERE id = $1`,
      [dog.id],
    );

    const answer = await patrol.rpc.call(
      Rpcs.beingNodesSearch,
      { agent: 'mia', keywords: ['dog'] },
      { tenantId: 'acme', timeoutMs: 10_000 },
    );
    expect(answer.nodes.map((n) => n.id)).toEqual([dog.id]);
    expect(await node('mia', 'walked the dog along the river')).toMatchObject({
      reactivation_count: 2,
      status: 'dead',
    });

    const report = await patrol.rpc.call(
      Rpcs.patrolRun,
      { agent: 'mia' },
      { tenantId: 'acme', timeoutMs: 60_000 },
    );
    expect(report.steps.find((s) => s.step === 'revival')!.counts).toEqual({ revived: 1 });
    expect((await node('mia', 'walked the dog along the river')).status).toBe('active');
  });

  it('search_memory matches any keyword by default and every keyword with "and", over action, feeling, themes and dates', async () => {
    const search = (keywords: string[], match = '') =>
      patrol.rpc
        .call(
          Rpcs.beingNodesSearch,
          { agent: 'mia', keywords, match },
          { tenantId: 'acme', timeoutMs: 10_000 },
        )
        .then((a) => a.nodes.map((n) => n.action).sort());

    expect(await search(['sourdough', 'budget'])).toEqual([
      'baked sourdough bread with Mia in the kitchen',
      'finished the quarterly budget report at the office',
    ]);
    expect(await search(['sourdough', 'budget'], 'and')).toEqual([]);
    expect(await search(['WARM', 'kitchen'], 'and')).toEqual([BREAD]);
    expect(await search(['pets'])).toEqual(['walked the dog along the river']);
    expect(await search(['2026-10-05'])).toEqual(['walked the dog along the river']);
    // % and _ are taken literally.
    expect(await search(['100%'])).toEqual(['paid 100% of the rent']);
    expect(await search(['%'])).toEqual(['paid 100% of the rent']);
  });

  it('recall_memory answers a cluster’s scenes and counts them (dead +2), and no other being’s cluster', async () => {
    const [cluster] = await patrol.sql<{ id: string }>(
      `SELECT cluster_id::text AS id FROM memory_nodes WHERE tenant_id = 'acme' AND agent = 'mia' AND scene ->> 'action' = $1`,
      [BREAD],
    );
    const members = await patrol.sql<{ id: string; reactivation_count: number; status: string }>(
      `SELECT id::text, reactivation_count, status FROM memory_nodes WHERE cluster_id = $1 ORDER BY id`,
      [cluster!.id],
    );
    await patrol.sql(`UPDATE memory_nodes SET status = 'dead' WHERE id = $1`, [members[0]!.id]);

    const answer = await patrol.rpc.call(
      Rpcs.beingClustersRecall,
      { agent: 'mia', clusterId: cluster!.id },
      { tenantId: 'acme', timeoutMs: 10_000 },
    );

    expect(answer.nodes.map((n) => n.id).sort()).toEqual(members.map((m) => m.id).sort());
    const after = await patrol.sql<{ id: string; reactivation_count: number }>(
      `SELECT id::text, reactivation_count FROM memory_nodes WHERE cluster_id = $1 ORDER BY id`,
      [cluster!.id],
    );
    expect(after.map((a, i) => a.reactivation_count - members[i]!.reactivation_count)).toEqual(
      members.map((_, i) => (i === 0 ? 2 : 1)),
    );
    const refused = await patrol.rpc
      .call(
        Rpcs.beingClustersRecall,
        { agent: 'ben', clusterId: cluster!.id },
        { tenantId: 'acme', timeoutMs: 10_000 },
      )
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RpcError);
    expect(refused).toMatchObject({ code: 'NOT_FOUND' });
    const otherTenant = await patrol.rpc
      .call(
        Rpcs.beingClustersRecall,
        { agent: 'mia', clusterId: cluster!.id },
        { tenantId: 'globex', timeoutMs: 10_000 },
      )
      .catch((e: unknown) => e);
    expect(otherTenant).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a bad field with INVALID_ARGUMENT naming it', async () => {
    const refused = await patrol.rpc
      .call(
        Rpcs.beingNodesSearch,
        { agent: 'mia', keywords: [], match: 'xor' },
        { tenantId: 'acme', timeoutMs: 10_000 },
      )
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT' });
    const fields = ((refused as RpcError).details['fieldViolations'] as Array<{ field: string }>).map(
      (v) => v.field,
    );
    expect(fields.sort()).toEqual(['keywords', 'match']);
  });
});
