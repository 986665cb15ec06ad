import { PATROL_STEPS, PatrolCompletedSchema, Rpcs, Streams, Subjects } from '@engram/contracts';
import { callRpc } from '@engram/messaging';
import {
  eventsOn,
  startService,
  startTestEnvironment,
  waitFor,
  type ServiceProcess,
  type TestEnvironment,
} from '@engram/testing';

/**
 * The patrol SIGKILLed mid-run — inside a step's transaction (failpoint `patrol.in-step`)
 * and right after one committed (`patrol.after-step`) — then started again: the store is
 * consistent (what committed is whole, what did not is absent), and the next run resumes the
 * same run and completes it, doing no step twice, announcing it once.
 */
describe('patrol: SIGKILLed mid-run, then run again (real processes, Postgres, NATS, Gerty)', () => {
  let env: TestEnvironment;
  let patrol: ServiceProcess | undefined;

  const patrolEnv = (failpoints = '') => ({
    ...env.env,
    PATROL_EVERY_MS: '0',
    ...(failpoints && { ENGRAM_FAILPOINTS: failpoints }),
  });
  const run = (agent: string, timeoutMs = 30_000) =>
    callRpc(env.nc, Rpcs.patrolRun, { agent }, { tenantId: 'acme', timeoutMs });
  const sessions = (agent: string) =>
    env.sql<{ session_count: number }>(
      `SELECT session_count FROM memory_nodes WHERE agent = $1 ORDER BY id`,
      [agent],
    );

  beforeAll(async () => {
    env = await startTestEnvironment({ label: 'patrol_crash', processes: ['gerty'] });
    await env.sql(`INSERT INTO tenants (tenant_id) VALUES ('acme')`);
  });

  afterAll(async () => {
    patrol?.kill();
    await patrol?.exited;
    await env?.stop();
  });

  async function startPatrol(failpoints = ''): Promise<ServiceProcess> {
    patrol = await startService('patrol', patrolEnv(failpoints));
    await patrol.waitUntilReady();
    return patrol;
  }

  async function seed(agent: string, scenes: number): Promise<void> {
    for (let i = 0; i < scenes; i++)
      await env.sql(
        `INSERT INTO notes (tenant_id, agent, kind, content, scene) VALUES ('acme', $1, 'scene', $2::text, $2::jsonb)`,
        [agent, JSON.stringify({ action: `scene ${i} of ${agent}`, actors: ['me'] })],
      );
  }

  it.each([
    ['inside the decay step’s transaction', 'patrol.in-step:decay', ['repair', 'scenes', 'sessions']],
    [
      'right after the sessions step committed',
      'patrol.after-step:sessions',
      ['repair', 'scenes', 'sessions'],
    ],
  ])('killed %s: resumes the run and completes it, each step once', async (_, failpoint, committed) => {
    const agent = failpoint.includes('in-step') ? 'ada' : 'bo';
    await seed(agent, 5);
    const doomed = await startPatrol(failpoint);

    await expect(run(agent, 10_000)).rejects.toThrow();
    await Promise.race([
      doomed.exited,
      new Promise((_, reject) => setTimeout(() => reject(new Error('patrol did not die')), 15_000)),
    ]);

    // What committed is whole; the step that was cut is absent.
    const [left] = await env.sql<{ id: string; steps_done: string[]; finished_at: Date | null }>(
      `SELECT id::text, steps_done, finished_at FROM patrol_runs WHERE agent = $1`,
      [agent],
    );
    expect(left!.steps_done).toEqual(committed);
    expect(left!.finished_at).toBeNull();
    expect(await sessions(agent)).toEqual(Array.from({ length: 5 }, () => ({ session_count: 1 })));
    expect(
      await env.count(`SELECT count(*) AS n FROM notes WHERE agent = $1 AND processed_at IS NULL`, [agent]),
    ).toBe(0);

    await startPatrol();
    const report = await run(agent);

    expect(report).toMatchObject({ runId: left!.id, resumed: true });
    expect(report.steps.map((s) => s.step)).toEqual(PATROL_STEPS);
    // Sessions counted once for that run, nodes made once.
    expect(await sessions(agent)).toEqual(Array.from({ length: 5 }, () => ({ session_count: 1 })));
    expect(await env.count(`SELECT count(*) AS n FROM memory_nodes WHERE agent = $1`, [agent])).toBe(5);
    // Each node's importance curve has one first point and one decay point for that run.
    expect(
      await env.sql(
        `SELECT step, count(*)::int AS n FROM node_history WHERE run_id = $1 GROUP BY step ORDER BY step`,
        [left!.id],
      ),
    ).toEqual([
      { step: 'decay', n: 5 },
      { step: 'scenes', n: 5 },
    ]);
    expect(
      await env.count(`SELECT count(*) AS n FROM patrol_runs WHERE agent = $1 AND finished_at IS NOT NULL`, [
        agent,
      ]),
    ).toBe(1);
    await waitFor(
      'the run announced',
      async () =>
        (
          await eventsOn(env.js, Streams.events.name, Subjects.patrolCompleted('acme'), PatrolCompletedSchema)
        ).some((e) => e.event.runId === left!.id),
      10_000,
      100,
    );
    const announced = (
      await eventsOn(env.js, Streams.events.name, Subjects.patrolCompleted('acme'), PatrolCompletedSchema)
    ).filter((e) => e.event.runId === left!.id);
    expect(announced).toHaveLength(1);

    patrol!.kill('SIGTERM');
    await patrol!.exited;
  });
});
