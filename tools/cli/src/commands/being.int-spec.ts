import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestEnvironment, type TestEnvironment } from '@engram/testing';
import { getBeing, importSceneFile } from './being.command';
import { renderBeing } from './being-tree';
import { runPatrol } from './patrol.command';
import { renderPatrolReport } from './patrol-report';

const SCENES = [
  {
    scene: {
      action: 'baked sourdough bread with Mia in the kitchen',
      actors: ['me', 'Mia'],
      when: ['2026-11-02'],
      feeling: 'warm',
    },
    importance: 0.8,
  },
  {
    scene: { action: 'presented the quarterly budget report to the client at the office', actors: ['me'] },
    importance: 0.4,
  },
  { scene: { action: 'watched an old movie together on the sofa', actors: ['me', 'Mia'] }, importance: 0.06 },
  { action: 'a half-written scene', actors: 'Mia' },
];

/**
 * `engram being import`, `engram patrol run` and `engram being show` against patrol and Gerty
 * running as their own processes (built dist): a being's scenes imported, patrolled eight times
 * (one scene fades to death), and shown as clusters with counts by status.
 */
describe('engram being import / patrol run / being show (real NATS, Postgres, patrol and Gerty)', () => {
  let env: TestEnvironment;
  let dir: string;

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'cli-being',
      processes: ['gerty', { name: 'patrol', env: { PATROL_EVERY_MS: '0' } }],
    });
    dir = await mkdtemp(join(tmpdir(), 'engram-being-'));
    await writeFile(join(dir, 'scenes.jsonl'), `${SCENES.map((s) => JSON.stringify(s)).join('\n')}\n\n`);
  });

  afterAll(async () => {
    await env?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('imports scene notes, keeping a broken one marked; the patrol makes scenes of the rest and fades one', async () => {
    const imported = await importSceneFile({
      file: join(dir, 'scenes.jsonl'),
      tenantId: 'acme',
      agent: 'mia',
      natsUrl: env.env.NATS_URL,
    });
    expect(imported.stored).toBe(3);
    expect(imported.parseFailed).toMatchObject([{ line: 4 }]);
    expect(imported.refused).toEqual([]);
    expect(
      await env.count(
        `SELECT count(*) AS n FROM notes WHERE agent = 'mia' AND content LIKE '[PARSE_FAILED]%'`,
      ),
    ).toBe(1);

    const first = await runPatrol(env.env.NATS_URL, 'acme', { agent: 'mia' }, 60_000);
    expect(renderPatrolReport(first)).toMatch(/^scenes +nodes 3 · joined 0 · private 2 · business 1/m);
    expect(renderPatrolReport(first)).toMatch(/^consolidation +skipped: no model$/m);

    // Importance 0.06 fades at the 6th session (dying); without a model it stays dying, not dead.
    for (let i = 0; i < 7; i++) await runPatrol(env.env.NATS_URL, 'acme', { agent: 'mia' }, 60_000);

    const shown = renderBeing(await getBeing(env.env.NATS_URL, 'acme', 'mia'));
    expect(shown).toMatch(/^Business +active 1 · dying 0 · dead 0$/m);
    expect(shown).toMatch(/^Private +active 1 · dying 1 · dead 0$/m);
  });
});
