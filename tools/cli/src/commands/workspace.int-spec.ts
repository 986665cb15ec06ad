import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import {
  startTestEnvironment,
  type NatsServerHandle,
  type ScratchDatabase,
  type TestEnvironment,
} from '@engram/testing';
import { RpcError } from '@engram/messaging';
import { getAgent, putAgent } from './agent.command';
import { importWorkspace } from './workspace.command';

const CLI = resolve(__dirname, '../../dist/main.js');

/** `engram workspace import`, `engram agent put` and `engram context` against context-builder running as its own process (built dist). */
describe('engram workspace import / agent put (real NATS, Postgres and context-builder)', () => {
  let env: TestEnvironment;
  let nats: NatsServerHandle;
  let db: ScratchDatabase;
  let admin: Client;
  let dir: string;

  beforeAll(async () => {
    env = await startTestEnvironment({ label: 'cli-workspace', processes: ['context-builder'] });
    ({ nats, db, admin } = env);

    dir = await mkdtemp(join(tmpdir(), 'engram-workspace-'));
    await mkdir(join(dir, 'memory'));
    await mkdir(join(dir, 'skills'));
    await writeFile(join(dir, 'SOUL.md'), 'I am curious and kind.');
    await writeFile(join(dir, 'USER.md'), 'Sam prefers short answers.');
    await writeFile(join(dir, 'notes.txt'), 'scratch');
    await writeFile(join(dir, 'memory', '2026-11-22.md'), 'Fixed the air recycler.');
    await writeFile(
      join(dir, 'skills', 'deploy.md'),
      '---\nname: deploy\ndescription: Ship a release\ntriggers:\n  keywords: [deploy, release]\n  patterns: ["roll ?back"]\n---\nRun the pipeline.\n',
    );
    await writeFile(join(dir, 'skills', 'broken.md'), '---\nname: broken\ntriggers: [unclosed\n---\nBody\n');
  });

  afterAll(async () => {
    await env?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const documents = async (tenant: string) =>
    (
      await admin.query(
        `SELECT name, kind, to_char(day, 'YYYY-MM-DD') AS day, content FROM workspace_documents WHERE tenant_id = $1 AND agent = 'helper' ORDER BY name`,
        [tenant],
      )
    ).rows;
  const skills = async (tenant: string) =>
    (
      await admin.query(
        `SELECT name, keywords, patterns, body FROM skills WHERE tenant_id = $1 AND agent = 'helper' ORDER BY name`,
        [tenant],
      )
    ).rows;

  it('imports the folder: workspace files with kinds and days, other files skipped, broken skills rejected with the YAML problem', async () => {
    const result = await importWorkspace({ dir, tenantId: 'acme', agent: 'helper', natsUrl: nats.url });
    expect(result.stored).toEqual(['SOUL.md', 'USER.md', 'memory/2026-11-22.md']);
    expect(result.skipped).toMatchObject([
      { name: 'notes.txt', reason: expect.stringMatching(/^not a workspace file/) },
    ]);
    expect(result.skills).toEqual(['deploy']);
    expect(result.rejected).toMatchObject([
      {
        name: 'skills/broken.md',
        reason: expect.stringMatching(/^invalid YAML front matter: .* at line 3, column \d+$/),
      },
    ]);

    expect(await documents('acme')).toEqual([
      { name: 'SOUL.md', kind: 'soul', day: null, content: 'I am curious and kind.' },
      { name: 'USER.md', kind: 'user', day: null, content: 'Sam prefers short answers.' },
      { name: 'memory/2026-11-22.md', kind: 'daily', day: '2026-11-22', content: 'Fixed the air recycler.' },
    ]);
    expect(await skills('acme')).toEqual([
      {
        name: 'deploy',
        keywords: ['deploy', 'release'],
        patterns: ['roll ?back'],
        body: 'Run the pipeline.',
      },
    ]);
  });

  it('is idempotent: importing again stores the same rows, no duplicates', async () => {
    const before = await admin.query(
      `SELECT name, updated_at FROM workspace_documents UNION ALL SELECT name, updated_at FROM skills ORDER BY 1`,
    );
    await importWorkspace({ dir, tenantId: 'acme', agent: 'helper', natsUrl: nats.url });
    const after = await admin.query(
      `SELECT name, updated_at FROM workspace_documents UNION ALL SELECT name, updated_at FROM skills ORDER BY 1`,
    );
    expect(after.rows).toEqual(before.rows);
  });

  it('keeps the import from another tenant', async () => {
    const app = new Client({ connectionString: db.appUrl });
    await app.connect();
    try {
      await app.query('BEGIN');
      await app.query(`SELECT set_config('engram.tenant_id', 'globex', true)`);
      expect(
        (await app.query(`SELECT 1 FROM workspace_documents UNION ALL SELECT 1 FROM skills`)).rowCount,
      ).toBe(0);
    } finally {
      await app.end();
    }
  });

  it('refuses an invalid agent name with the structured error', async () => {
    const error = await importWorkspace({
      dir,
      tenantId: 'acme',
      agent: 'not valid',
      natsUrl: nats.url,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { fieldViolations: [{ field: 'agent' }] },
    });
  });

  it('puts an agent profile and reads it back', async () => {
    await putAgent(nats.url, 'acme', {
      agent: 'helper',
      name: 'Gerty',
      job: 'station assistant',
      userName: 'Sam',
      tools: ['web_search'],
      sceneMemory: true,
    });
    expect(await getAgent(nats.url, 'acme', 'helper')).toMatchObject({
      agent: 'helper',
      name: 'Gerty',
      job: 'station assistant',
      userName: 'Sam',
      tools: ['web_search'],
      sceneMemory: true,
    });
    await expect(getAgent(nats.url, 'globex', 'helper')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('prints the prompt for a message as of a moment (engram context --as-of, the built command)', async () => {
    const stdout = await new Promise<string>((done, fail) =>
      execFile(
        process.execPath,
        [
          CLI,
          'context',
          '--tenant',
          'acme',
          '--agent',
          'helper',
          '--as-of',
          '2026-11-22T08:00:00Z',
          'hi',
          '--json',
        ],
        { env: { ...process.env, NATS_URL: nats.url } },
        (error, out, err) => (error ? fail(new Error(err)) : done(out)),
      ),
    );
    const blocks = (JSON.parse(stdout) as { blocks: Array<{ layer: string; text: string }> }).blocks;
    const text = (layer: string) =>
      blocks
        .filter((b) => b.layer === layer)
        .map((b) => b.text)
        .join('\n');
    // That day's date, and that day's note.
    expect(text('identity')).toContain('Today is Sunday, 22 November 2026 (2026-11-22).');
    expect(text('workspace')).toContain('Fixed the air recycler.');
  });
});
