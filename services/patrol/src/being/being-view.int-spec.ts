import { Rpcs, type PatrolReport, type RpcSpec } from '@engram/contracts';
import type { RpcClient } from '@engram/messaging';
import { rpcFailure, startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadPatrolConfig } from '../patrol.config';
import { PatrolModule } from '../patrol.module';

const acme = { tenantId: 'acme' };

/**
 * mem.rpc.being.nodes.list, .node.history and .journal — the dashboard's read-only look at a
 * being — against real Postgres, NATS and Gerty (built-in model), with nodes the patrol made.
 */
describe('a being’s memory, looked at (real Postgres, NATS, Gerty)', () => {
  let patrol: ServiceUnderTest;
  let rpc: RpcClient;
  /** Node ids by action. */
  const nodes: Record<string, string> = {};
  const runs: string[] = [];

  const failureOf = (spec: RpcSpec, request: Parameters<RpcClient['call']>[1], tenantId?: string) =>
    rpcFailure(rpc, spec, request, tenantId);
  const run = (agent: string): Promise<PatrolReport> =>
    rpc.call(Rpcs.patrolRun, { agent }, { ...acme, timeoutMs: 60_000 });
  const history = (nodeId: string, agent = 'mia', tenantId = 'acme') =>
    rpc.call(Rpcs.beingNodesHistoryGet, { agent, nodeId }, { tenantId });
  const scene = (action: string, importance: number) =>
    rpc.call(
      Rpcs.beingScenesAdd,
      {
        agent: 'mia',
        scene: JSON.stringify({ action, actors: ['me'], when: ['2026-11-02'], feeling: 'calm' }),
        importance,
      },
      acme,
    );

  beforeAll(async () => {
    patrol = await startServiceUnderTest({
      label: 'being_view',
      loadConfig: loadPatrolConfig,
      module: (config) => PatrolModule.register(config),
      processes: ['gerty'],
      config: { PATROL_TICK_MS: '86400000' },
    });
    rpc = patrol.rpc;
    await scene('watered the tomatoes', 0.9);
    await scene('heard a distant train', 0.04);
    runs.push((await run('mia')).runId);
    for (const n of (await rpc.call(Rpcs.beingNodesList, { agent: 'mia' }, acme)).nodes)
      nodes[n.action] = n.id;
  });

  afterAll(() => patrol?.stop());

  describe('nodes.list', () => {
    it('answers the being’s nodes, most important first, filtered by status and cluster', async () => {
      const all = await rpc.call(Rpcs.beingNodesList, { agent: 'mia' }, acme);
      expect(all.nodes.map((n) => [n.action, n.status, n.feeling])).toEqual([
        ['watered the tomatoes', 'active', 'calm'],
        ['heard a distant train', 'dying', 'calm'],
      ]);
      const dying = await rpc.call(Rpcs.beingNodesList, { agent: 'mia', statuses: ['dying'] }, acme);
      expect(dying.nodes.map((n) => n.action)).toEqual(['heard a distant train']);
      const clusterId = all.nodes[0]!.clusterId;
      const inCluster = await rpc.call(Rpcs.beingNodesList, { agent: 'mia', clusterId }, acme);
      expect(inCluster.nodes.every((n) => n.clusterId === clusterId)).toBe(true);
      expect(inCluster.nodes.map((n) => n.action)).toContain('watered the tomatoes');
      const limited = await rpc.call(Rpcs.beingNodesList, { agent: 'mia', limit: 1 }, acme);
      expect(limited.nodes).toHaveLength(1);
      const byId = await rpc.call(
        Rpcs.beingNodesList,
        { agent: 'mia', nodeIds: [nodes['heard a distant train']!] },
        acme,
      );
      expect(byId.nodes.map((n) => n.action)).toEqual(['heard a distant train']);
    });

    it('revives nothing: a dead node stays dead, its activation and reactivations untouched', async () => {
      const id = nodes['heard a distant train']!;
      await patrol.sql(`UPDATE memory_nodes SET status = 'dead' WHERE id = $1`, [id]);
      const row = () =>
        patrol.sql(
          `SELECT status, last_activated, reactivation_count, updated_at FROM memory_nodes WHERE id = $1`,
          [id],
        );
      const before = await row();
      const listed = await rpc.call(Rpcs.beingNodesList, { agent: 'mia', statuses: ['dead'] }, acme);
      expect(listed.nodes.map((n) => [n.id, n.status, n.reactivationCount])).toEqual([[id, 'dead', 0]]);
      expect(await row()).toEqual(before);
      await patrol.sql(`UPDATE memory_nodes SET status = 'dying' WHERE id = $1`, [id]);
    });

    it('refuses a status it does not know and a limit over 500', async () => {
      expect(
        (await failureOf(Rpcs.beingNodesList, { agent: 'mia', statuses: ['zombie'], limit: 501 })).details,
      ).toEqual({
        fieldViolations: [
          { field: 'statuses', description: 'statuses must be among active, dying, dead (got "zombie")' },
          { field: 'limit', description: 'limit must be between 1 and 500 (got 501)' },
        ],
      });
    });
  });

  describe('node.history', () => {
    it('starts at the importance the scene gave, then grows one point per patrol run', async () => {
      const tomatoes = nodes['watered the tomatoes']!;
      const first = await history(tomatoes);
      expect(first.points.map((p) => [p.runId, p.step, p.status])).toEqual([
        [runs[0], 'scenes', 'active'],
        [runs[0], 'decay', 'active'],
      ]);
      expect(first.points[0]!.importance).toBeCloseTo(0.9, 5);
      expect(first.points[0]!.effectiveImportance).toBeCloseTo(0.9, 5);
      // The run counted a session on the new node before its decay step: e^(−1/30).
      expect(first.points[1]!.effectiveImportance).toBeCloseTo(0.9 * Math.exp(-1 / 30), 5);

      runs.push((await run('mia')).runId);
      runs.push((await run('mia')).runId);
      const later = await history(tomatoes);
      expect(later.points.map((p) => [p.runId, p.step])).toEqual([
        [runs[0], 'scenes'],
        [runs[0], 'decay'],
        [runs[1], 'decay'],
        [runs[2], 'decay'],
      ]);
      expect(later.points[3]!.effectiveImportance).toBeCloseTo(0.9 * Math.exp(-3 / 30), 5);
    });

    it('records the status each run left: dying while it fades (decay kills nothing), then no point while it is dead', async () => {
      const train = nodes['heard a distant train']!;
      const decayPoints = async () =>
        (await history(train)).points.filter((p) => p.step === 'decay').map((p) => [p.runId, p.status]);
      expect(await decayPoints()).toEqual([
        [runs[0], 'dying'],
        [runs[1], 'dying'],
        [runs[2], 'dying'],
      ]);
      // Let go, as consolidation (❹) would: the next run records its death, the one after nothing.
      await patrol.sql(`UPDATE memory_nodes SET status = 'dead' WHERE id = $1`, [train]);
      runs.push((await run('mia')).runId);
      runs.push((await run('mia')).runId);
      expect((await decayPoints()).slice(3)).toEqual([[runs[3], 'dead']]);
    });

    it('a run resumed at its decay step writes no second point for that run', async () => {
      const last = runs[runs.length - 1]!;
      await patrol.sql(
        `UPDATE patrol_runs SET finished_at = NULL, steps_done = ARRAY['scenes', 'sessions'],
                report = report - 'decay' - 'consolidation' - 'revival' - 'split' - 'merge' - 'diary' - 'think'
          WHERE id = $1`,
        [last],
      );
      const resumed = await run('mia');
      expect(resumed).toMatchObject({ runId: last, resumed: true });
      const points = await history(nodes['watered the tomatoes']!);
      expect(points.points.filter((p) => p.runId === last).map((p) => p.step)).toEqual(['decay']);
      expect(points.points).toHaveLength(6);
    });

    it('answers NOT_FOUND for a node the being does not have', async () => {
      expect(
        await failureOf(Rpcs.beingNodesHistoryGet, { agent: 'bo', nodeId: nodes['watered the tomatoes']! }),
      ).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('journal', () => {
    it('answers the diary newest day first and only the think notes in force', async () => {
      await patrol.sql(
        `INSERT INTO diary (tenant_id, agent, day, content) VALUES
           ('acme', 'mia', '2026-11-01', 'a quiet day'), ('acme', 'mia', '2026-11-03', 'tomatoes ripened'),
           ('acme', 'mia', '2026-11-02', 'trains all night')`,
      );
      await patrol.sql(
        `INSERT INTO think_notes (tenant_id, agent, content, run_id, superseded_at) VALUES
           ('acme', 'mia', 'old thought', $1, now()), ('acme', 'mia', 'ask about the garden', $2, NULL),
           ('acme', 'mia', 'she likes trains', $2, NULL)`,
        [runs[0], runs[1]],
      );
      const journal = await rpc.call(Rpcs.beingJournalGet, { agent: 'mia', limit: 2 }, acme);
      expect(journal.diary.map((d) => [d.day, d.content])).toEqual([
        ['2026-11-03', 'tomatoes ripened'],
        ['2026-11-02', 'trains all night'],
      ]);
      expect(journal.thinkNotes.map((t) => [t.content, t.runId])).toEqual([
        ['ask about the garden', runs[1]],
        ['she likes trains', runs[1]],
      ]);
    });
  });

  it('another tenant sees none of it', async () => {
    const globex = 'globex';
    expect((await rpc.call(Rpcs.beingNodesList, { agent: 'mia' }, { tenantId: globex })).nodes).toEqual([]);
    expect(
      await failureOf(
        Rpcs.beingNodesHistoryGet,
        { agent: 'mia', nodeId: nodes['watered the tomatoes']! },
        globex,
      ),
    ).toMatchObject({ code: 'NOT_FOUND' });
    const journal = await rpc.call(Rpcs.beingJournalGet, { agent: 'mia' }, { tenantId: globex });
    expect(journal).toMatchObject({ diary: [], thinkNotes: [] });
  });
});
