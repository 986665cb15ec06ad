import {
  Events,
  PATROL_STEPS,
  PatrolCompletedSchema,
  Rpcs,
  Streams,
  Subjects,
  type PatrolReport,
} from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import { eventsOn, startServiceUnderTest, waitFor, type ServiceUnderTest } from '@engram/testing';
import type { LoggerService } from '@nestjs/common';
import { loadPatrolConfig } from '../patrol.config';
import { PatrolModule } from '../patrol.module';
import { PatrolScheduleService } from './patrol-schedule.service';
import { NO_MODEL_MESSAGE } from './patrol-step';

/** Everything the apps log, as text. */
class LoggedLines implements LoggerService {
  readonly lines: string[] = [];
  log = (message: unknown) => void this.lines.push(String(message));
  error = (message: unknown) => void this.lines.push(String(message));
  warn = (message: unknown) => void this.lines.push(String(message));
}

/**
 * The patrol on the built-in model (no language model): ❶ scene notes → nodes, ❷ sessions,
 * ❸ decay, ❺ revival, ❼ merges; the repair of broken scene notes, ❹, ❻, the diary and think
 * notes skipped, saying so. Real Postgres, NATS and Gerty.
 */
describe('patrol, mechanical (real Postgres, NATS, Gerty on the built-in model)', () => {
  let patrol: ServiceUnderTest;
  const logger = new LoggedLines();
  let model: string;
  let dims: number;

  beforeAll(async () => {
    patrol = await startServiceUnderTest({
      label: 'patrol',
      loadConfig: loadPatrolConfig,
      module: (config) => PatrolModule.register(config),
      processes: ['gerty'],
      // The schedule's period is the default (6 h); its timer never fires here: the test calls tick().
      config: { PATROL_TICK_MS: '86400000' },
      logger,
    });
    const embedded = await patrol.rpc.call(Rpcs.gertyEmbed, { texts: ['x'] }, { timeoutMs: 10_000 });
    model = embedded.model;
    dims = embedded.dimensions;
  });

  afterAll(() => patrol?.stop());

  const run = (tenant: string, agent: string): Promise<PatrolReport> =>
    patrol.rpc.call(Rpcs.patrolRun, { agent }, { tenantId: tenant, timeoutMs: 60_000 });
  const step = (report: PatrolReport, name: string) => report.steps.find((s) => s.step === name)!;

  /** A scene note as a being's runtime leaves it (the RPC's effect), straight into the table. */
  async function sceneNote(tenant: string, agent: string, scene: object, importance: number | null = null) {
    await patrol.sql(`INSERT INTO tenants (tenant_id) VALUES ($1) ON CONFLICT DO NOTHING`, [tenant]);
    await patrol.sql(
      `INSERT INTO notes (tenant_id, agent, kind, content, scene, importance) VALUES ($1, $2, 'scene', $3::text, $3::jsonb, $4)`,
      [tenant, agent, JSON.stringify(scene), importance],
    );
  }

  /** A vector of the deployment's width pointing mostly along `axis`. */
  const along = (axis: number, tilt = 0) =>
    `[${Array.from({ length: dims }, (_, i) => (i === axis ? 1 : i === axis + 1 ? tilt : 0)).join(',')}]`;

  it('turns scene notes into fresh nodes in Business or Private, clamped, dated, embedded; then it has nothing new', async () => {
    await sceneNote(
      'acme',
      'mia',
      {
        action: 'presented the quarterly budget report to the client at the office meeting',
        actors: ['me', 'boss'],
      },
      7,
    );
    await sceneNote('acme', 'mia', {
      action: 'baked bread at home with my sister for the family dinner',
      actors: ['me', 'sister'],
      when: ['2026-11-01'],
      feeling: 'warm',
    });

    const report = await run('acme', 'mia');

    expect(report.resumed).toBe(false);
    expect(step(report, 'scenes')).toMatchObject({
      skipped: false,
      counts: { nodes: 2, joined: 0, business: 1, private: 1 },
    });
    const nodes = await patrol.sql<{
      action: string;
      root: string;
      importance: number;
      fresh: boolean;
      status: string;
      when: string[];
      embedding_model: string;
      session_count: number;
    }>(
      `SELECT m.scene ->> 'action' AS action, c.root, m.importance, m.fresh, m.status, m.embedding_model,
              m.session_count, ARRAY(SELECT jsonb_array_elements_text(m.scene -> 'when')) AS when
         FROM memory_nodes m JOIN clusters c ON c.id = m.cluster_id WHERE m.tenant_id = 'acme' ORDER BY m.id`,
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(nodes).toEqual([
      expect.objectContaining({
        root: 'business',
        importance: 1,
        fresh: true,
        status: 'active',
        when: [today],
      }),
      expect.objectContaining({ root: 'private', importance: 0.5, fresh: true, when: ['2026-11-01'] }),
    ]);
    expect(nodes.every((n) => n.embedding_model === model && n.session_count === 1)).toBe(true);
    expect(
      await patrol.count(`SELECT count(*) AS n FROM notes WHERE tenant_id = 'acme' AND processed_at IS NULL`),
    ).toBe(0);
    // Each root's centroid is the mean of its one active node.
    expect(
      await patrol.count(
        `SELECT count(*) AS n FROM clusters c WHERE tenant_id = 'acme' AND centroid = (SELECT embedding FROM memory_nodes m WHERE m.cluster_id = c.id)`,
      ),
    ).toBe(2);

    const again = await run('acme', 'mia');
    expect(step(again, 'scenes')).toMatchObject({ skipped: true, reason: 'no new scenes' });
    expect(await patrol.count(`SELECT count(*) AS n FROM memory_nodes WHERE tenant_id = 'acme'`)).toBe(2);
  });

  it('without a language model logs exactly why, and reports the repair, ❹ ❻ diary and think as skipped', async () => {
    await sceneNote('acme', 'ben', { action: 'walked the dog in the park', actors: ['me'] });
    await patrol.sql(
      `INSERT INTO notes (tenant_id, agent, kind, content, parse_failed) VALUES ('acme', 'ben', 'scene', '[PARSE_FAILED] walked the dog', true)`,
    );
    logger.lines.length = 0;

    const report = await run('acme', 'ben');

    expect(logger.lines).toContain(NO_MODEL_MESSAGE);
    expect(NO_MODEL_MESSAGE).toBe(
      '[graph] BYOK key not set: skipping ❹❻ diary/think_md (mechanical processing only)',
    );
    for (const name of ['repair', 'consolidation', 'split', 'diary', 'think'])
      expect(step(report, name)).toMatchObject({ skipped: true, reason: 'no model' });
    // The broken note was not offered: it waits, marked, for a run with a model.
    expect(
      await patrol.sql(
        `SELECT content, parse_failed, repair_tried_at FROM notes WHERE agent = 'ben' AND parse_failed`,
      ),
    ).toEqual([{ content: '[PARSE_FAILED] walked the dog', parse_failed: true, repair_tried_at: null }]);
    for (const name of ['scenes', 'sessions', 'decay', 'revival', 'merge'])
      expect(step(report, name).skipped).toBe(false);
    expect(report.steps.map((s) => s.step)).toEqual(PATROL_STEPS);
  });

  it('puts a scene into the most similar sub-cluster at cosine ≥ 0.45', async () => {
    await sceneNote('acme', 'cat', { action: 'first scene', actors: ['me'] });
    await run('acme', 'cat');
    const [node] = await patrol.sql<{ embedding: string; parent: string }>(
      `SELECT m.embedding::text, c.id::text AS parent FROM memory_nodes m JOIN clusters c ON c.id = m.cluster_id WHERE m.agent = 'cat'`,
    );
    // A sub-cluster whose centroid is the vector the same text will get again.
    const [sub] = await patrol.sql<{ id: string }>(
      `INSERT INTO clusters (tenant_id, agent, name, parent_id, centroid, centroid_model)
       VALUES ('acme', 'cat', 'Firsts', $1, $2::halfvec, $3) RETURNING id::text`,
      [node!.parent, node!.embedding, model],
    );
    // Two scenes there already (a sub-cluster of two or fewer would be merged away by ❼).
    for (let i = 0; i < 2; i++)
      await patrol.sql(
        `INSERT INTO memory_nodes (tenant_id, agent, scene, cluster_id, embedding, embedding_model)
         VALUES ('acme', 'cat', '{"action":"first scene","actors":["me"]}', $1, $2::halfvec, $3)`,
        [sub!.id, node!.embedding, model],
      );
    await sceneNote('acme', 'cat', { action: 'first scene', actors: ['me'] });

    const report = await run('acme', 'cat');

    expect(step(report, 'scenes').counts).toMatchObject({ nodes: 1, joined: 1, business: 0, private: 0 });
    expect(
      await patrol.count(`SELECT count(*) AS n FROM memory_nodes WHERE agent = 'cat' AND cluster_id = $1`, [
        sub!.id,
      ]),
    ).toBe(3);
  });

  it('❼ moves a small sub-cluster into its most similar sibling, another into the root, and deletes an empty one', async () => {
    const tenant = 'merges';
    await sceneNote(tenant, 'dot', { action: 'seed', actors: ['me'] });
    await run(tenant, 'dot');
    const [root] = await patrol.sql<{ id: string }>(
      `SELECT id::text FROM clusters WHERE tenant_id = $1 AND root = 'private'`,
      [tenant],
    );
    const cluster = async (name: string, axis: number, tilt: number, created = `now() - interval '1 day'`) =>
      (
        await patrol.sql<{ id: string }>(
          `INSERT INTO clusters (tenant_id, agent, name, parent_id, centroid, centroid_model, created_at)
           VALUES ($1, 'dot', $2, $3, $4::halfvec, $5, ${created}) RETURNING id::text`,
          [tenant, name, root!.id, along(axis, tilt), model],
        )
      )[0]!.id;
    const node = (clusterId: string, axis: number, status = 'active', importance = 0.5) =>
      patrol.sql(
        `INSERT INTO memory_nodes (tenant_id, agent, scene, cluster_id, embedding, embedding_model, status, fresh, importance)
         VALUES ($1, 'dot', '{"action":"n","actors":["me"]}', $2, $3::halfvec, $4, $5, false, $6)`,
        [tenant, clusterId, along(axis), model, status, importance],
      );
    const big = await cluster('Cooking', 0, 0);
    for (let i = 0; i < 3; i++) await node(big, 0);
    const near = await cluster('Baking', 0, 0.2); // cosine 0.98 with Cooking
    await node(near, 0);
    const far = await cluster('Taxes', 10, 0); // orthogonal to everything
    await node(far, 10);
    await node(far, 10);
    const empty = await cluster('Gone', 20, 0);
    await node(empty, 20, 'dead', 0.01); // faded for good: revival leaves it dead

    const report = await run(tenant, 'dot');

    expect(step(report, 'merge').counts).toEqual({ intoSibling: 1, intoRoot: 1, emptied: 1, deleted: 3 });
    const where = await patrol.sql<{ name: string; n: string }>(
      `SELECT c.name, count(m.id) AS n FROM clusters c LEFT JOIN memory_nodes m ON m.cluster_id = c.id
        WHERE c.tenant_id = $1 GROUP BY c.name ORDER BY c.name`,
      [tenant],
    );
    expect(where.map((w) => [w.name, Number(w.n)])).toEqual([
      ['Business', 0],
      ['Cooking', 4],
      ['Private', 4], // the seed, Taxes' two, Gone's dead one
    ]);
  });

  it('decays 200 nodes over 40 patrols without a model: they fade on schedule and none dies; pinned ones never fade, a dead one recalled revives', async () => {
    const tenant = 'decay';
    await patrol.sql(`INSERT INTO tenants (tenant_id) VALUES ($1)`, [tenant]);
    // Importance 0.06 … 0.258: a node of importance i is dying at session ⌈30·ln(20·i)⌉.
    for (let i = 0; i < 200; i++)
      await sceneNote(
        tenant,
        'eve',
        { action: `moment ${String(i).padStart(3, '0')}`, actors: ['me'] },
        0.06 + 0.001 * i,
      );
    await patrol.sql(
      `UPDATE notes SET importance = 0.06 WHERE tenant_id = $1 AND scene ->> 'action' = 'moment 005'`,
      [tenant],
    );
    const statuses = async () =>
      Object.fromEntries(
        (
          await patrol.sql<{ status: string; n: string }>(
            `SELECT status, count(*) AS n FROM memory_nodes WHERE tenant_id = $1 GROUP BY status`,
            [tenant],
          )
        ).map((r) => [r.status, Number(r.n)]),
      );
    const history: Array<Record<string, number>> = [];
    let revived = 0;
    for (let cycle = 1; cycle <= 40; cycle++) {
      if (cycle === 2) {
        const [first] = await patrol.sql<{ id: string }>(
          `SELECT id::text FROM memory_nodes WHERE tenant_id = $1 AND scene ->> 'action' = 'moment 000'`,
          [tenant],
        );
        await patrol.rpc.call(
          Rpcs.beingNodesPin,
          { agent: 'eve', nodeId: first!.id, pinned: true },
          { tenantId: tenant, timeoutMs: 10_000 },
        );
      }
      if (cycle === 10) {
        // As consolidation (❹) lets a dying scene go: dead, its importance lowered to the threshold.
        await patrol.sql(
          `UPDATE memory_nodes SET status = 'dead', importance = 0.05 WHERE tenant_id = $1 AND scene ->> 'action' = 'moment 005'`,
          [tenant],
        );
      }
      if (cycle === 30) {
        // The being looks for it (search_memory): a dead scene found counts twice.
        const found = await patrol.rpc.call(
          Rpcs.beingNodesSearch,
          { agent: 'eve', keywords: ['moment 005'] },
          { tenantId: tenant, timeoutMs: 10_000 },
        );
        expect(found.nodes.map((n) => [n.action, n.status])).toEqual([['moment 005', 'dead']]);
      }
      const report = await run(tenant, 'eve');
      revived += step(report, 'revival').counts['revived'] ?? 0;
      history.push(await statuses());
    }

    // Importance 0.06: e^(−s/30) · 0.06 ≤ 0.05 from s = 6 (dying); decay alone kills nothing.
    expect(history[4]).toEqual({ active: 200 });
    expect(history[5]!['dying']).toBeGreaterThan(0);
    expect(history.slice(0, 9).every((h) => h['dead'] === undefined)).toBe(true);
    expect(history[9]!['dead']).toBe(1);
    const final = history[39]!;
    expect(final['dead']).toBeUndefined();
    expect(final['dying']).toBeGreaterThan(100);
    expect(final['active']).toBeGreaterThan(1);
    expect(revived).toBe(1);
    const [pinned, recalled] = await patrol.sql<{ status: string }>(
      `SELECT status FROM memory_nodes WHERE tenant_id = $1 AND scene ->> 'action' IN ('moment 000', 'moment 005')
        ORDER BY scene ->> 'action'`,
      [tenant],
    );
    expect(pinned!.status).toBe('active');
    expect(recalled!.status).not.toBe('dead');
    // Dying nodes stop counting sessions: none counted one after it had faded.
    expect(
      await patrol.count(
        `SELECT count(*) AS n FROM memory_nodes WHERE tenant_id = $1 AND status = 'dying'
            AND importance * exp(-(session_count - 1) / 30.0) * (1 + reactivation_count) <= 0.05`,
        [tenant],
      ),
    ).toBe(0);
  });

  it('runs one patrol of a being at a time: a second while the lock is held is refused', async () => {
    await patrol.sql(`SELECT pg_advisory_lock(hashtextextended('patrol:acme:mia', 0))`);
    try {
      const refused = await run('acme', 'mia').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RpcError);
      expect(refused).toMatchObject({ code: 'FAILED_PRECONDITION', details: { running: true } });
      // Another being of the same tenant is not held up.
      await expect(run('acme', 'ben')).resolves.toMatchObject({ agent: 'ben' });
    } finally {
      await patrol.sql(`SELECT pg_advisory_unlock_all()`);
    }
  });

  it('finishes a run a dead process left, without doing its done steps again, and announces it once', async () => {
    const completed = () =>
      eventsOn(patrol.js, Streams.events.name, Subjects.patrolCompleted('acme'), PatrolCompletedSchema);
    const before = await patrol.sql<{ session_count: number }>(
      `SELECT session_count FROM memory_nodes WHERE agent = 'mia' ORDER BY id`,
    );
    const [left] = await patrol.sql<{ id: string }>(
      `INSERT INTO patrol_runs (tenant_id, agent, trigger, steps_done, report)
       VALUES ('acme', 'mia', 'schedule', '{scenes,sessions}', '{"scenes":{"skipped":true,"reason":"no new scenes","counts":{}},"sessions":{"skipped":false,"counts":{"nodes":2}}}')
       RETURNING id::text`,
    );

    const report = await run('acme', 'mia');

    expect(report).toMatchObject({ runId: left!.id, resumed: true });
    expect(step(report, 'sessions').counts).toEqual({ nodes: 2 });
    const after = await patrol.sql<{ session_count: number }>(
      `SELECT session_count FROM memory_nodes WHERE agent = 'mia' ORDER BY id`,
    );
    expect(after).toEqual(before);
    const ofRun = async () => (await completed()).filter((e) => e.event.runId === left!.id);
    await waitFor('the run announced', async () => (await ofRun()).length > 0, 10_000, 100);
    const events = await ofRun();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event: { agent: 'mia', trigger: 'schedule' },
      msgId: `patrol:acme:${left!.id}:completed`,
    });
    expect(Events.patrolCompleted.subject('acme')).toBe('mem.patrol.completed.acme');
  });

  it('never touches another being: patrolling one leaves the other’s nodes as they were', async () => {
    const other = () =>
      patrol.sql(
        `SELECT id, session_count, status, cluster_id FROM memory_nodes WHERE agent = 'ben' ORDER BY id`,
      );
    const before = await other();
    await run('acme', 'mia');
    expect(await other()).toEqual(before);
  });

  it('patrols due beings on schedule, once per period', async () => {
    const schedule = patrol.apps[0]!.get(PatrolScheduleService);
    await patrol.sql(`UPDATE beings SET last_patrol_at = now() - interval '7 hours'`);
    await patrol.sql(`UPDATE beings SET last_patrol_at = now() WHERE agent = 'dot'`);
    const due = await patrol.count(`SELECT count(*) AS n FROM beings WHERE agent <> 'dot'`);

    expect(await schedule.tick()).toBe(due);
    expect(await schedule.tick()).toBe(0);
    expect(
      await patrol.count(
        `SELECT count(*) AS n FROM patrol_runs WHERE trigger = 'schedule' AND finished_at IS NOT NULL`,
      ),
    ).toBeGreaterThanOrEqual(due);
  });
});
