import { PATROL_STEPS, PatrolCompletedSchema, Rpcs, Streams, Subjects } from '@engram/contracts';
import { callRpc } from '@engram/messaging';
import {
  eventsOn,
  startFakeOpenAiServer,
  startService,
  startTestEnvironment,
  waitFor,
  type FakeOpenAiServer,
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

/**
 * The patrol with a language model SIGKILLed in its repair step, then started again: a repair
 * cut short inside its transaction left the note as it was and is asked again; one that
 * committed is not asked again. Either way the note is repaired once and makes one node.
 */
describe('patrol: SIGKILLed in its repair step (Gerty in front of a fake OpenAI server)', () => {
  let env: TestEnvironment;
  let server: FakeOpenAiServer;
  let patrol: ServiceProcess | undefined;
  const scene = {
    action: 'baked bread with Mia',
    actors: ['me', 'Mia'],
    when: ['2026-11-02'],
    setting: '',
    dialogue: [],
    sensory: [],
    feeling: '',
  };

  beforeAll(async () => {
    server = await startFakeOpenAiServer();
    env = await startTestEnvironment({
      label: 'patrol_crash_repair',
      processes: [
        { name: 'gerty', env: { GERTY_OPENAI_BASE_URL: server.url, GERTY_OPENAI_CHAT_MODEL: 'fake-chat' } },
      ],
    });
    await env.sql(`INSERT INTO tenants (tenant_id) VALUES ('acme')`);
  });

  afterAll(async () => {
    patrol?.kill();
    await patrol?.exited;
    await env?.stop();
    await server?.close();
  });

  async function startPatrol(failpoints = ''): Promise<ServiceProcess> {
    patrol = await startService('patrol', {
      ...env.env,
      PATROL_EVERY_MS: '0',
      ...(failpoints && { ENGRAM_FAILPOINTS: failpoints }),
    });
    await patrol.waitUntilReady();
    return patrol;
  }
  const run = (agent: string, timeoutMs = 30_000) =>
    callRpc(env.nc, Rpcs.patrolRun, { agent }, { tenantId: 'acme', timeoutMs });
  const repairsAsked = () =>
    server.requests.filter((r) => JSON.stringify(r.body).includes('The note:')).length;
  const note = (agent: string) =>
    env.sql(
      `SELECT parse_failed, repair_tried_at IS NOT NULL AS offered, processed_at IS NOT NULL AS processed
         FROM notes WHERE agent = $1`,
      [agent],
    );

  it.each([
    ['inside the repair step’s transaction', 'patrol.in-step:repair', false, 2],
    ['right after the repair step committed', 'patrol.after-step:repair', true, 1],
  ])('killed %s: the note is repaired once and makes one node', async (_, failpoint, committed, asked) => {
    const agent = committed ? 'dee' : 'cy';
    await env.sql(
      `INSERT INTO notes (tenant_id, agent, kind, content, parse_failed)
       VALUES ('acme', $1, 'scene', '[PARSE_FAILED] baked bread with Mia on 2026-11-02', true)`,
      [agent],
    );
    const before = repairsAsked();
    // Enough scenes for every repair asked; the other model steps get the fake's default text (refused).
    server.script(
      ...Array.from({ length: asked }, () => ({ kind: 'content' as const, content: JSON.stringify(scene) })),
    );
    const doomed = await startPatrol(failpoint);

    await expect(run(agent, 10_000)).rejects.toThrow();
    await Promise.race([
      doomed.exited,
      new Promise((_, reject) => setTimeout(() => reject(new Error('patrol did not die')), 15_000)),
    ]);
    expect(await note(agent)).toEqual([{ parse_failed: !committed, offered: committed, processed: false }]);

    await startPatrol();
    const report = await run(agent);

    expect(report).toMatchObject({ resumed: true });
    expect(report.steps.find((s) => s.step === 'repair')!.counts).toMatchObject({ offered: 1, repaired: 1 });
    expect(repairsAsked() - before).toBe(asked);
    expect(await note(agent)).toEqual([{ parse_failed: false, offered: true, processed: true }]);
    expect(await env.count(`SELECT count(*) AS n FROM memory_nodes WHERE agent = $1`, [agent])).toBe(1);

    patrol!.kill('SIGTERM');
    await patrol!.exited;
  });
});
