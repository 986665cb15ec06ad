import { Client } from 'pg';
import { Rpcs, type RpcSpec } from '@engram/contracts';
import type { RpcClient } from '@engram/messaging';
import { startServiceUnderTest, type ServiceUnderTest, rpcFailure } from '@engram/testing';
import { loadContextBuilderConfig } from '../context-builder.config';
import { ContextBuilderModule } from '../context-builder.module';

const DEPLOY_SKILL = `---
name: deploy
description: Ship a release
triggers:
  keywords: [deploy, release]
  patterns: ["roll ?back", "v\\\\d+\\\\.\\\\d+"]
---
# Deploy

Run the pipeline, then watch the dashboards.
`;

/** mem.rpc.agents.{put,get}, mem.rpc.workspace.put and mem.rpc.skills.put against real NATS and Postgres. */
describe('agent profiles, workspace documents and skills (real Postgres and NATS)', () => {
  let cb: ServiceUnderTest;
  let rpc: RpcClient;
  let admin: Client;

  const failureOf = (spec: RpcSpec, request: Parameters<RpcClient['call']>[1], tenantId?: string) =>
    rpcFailure(rpc, spec, request, tenantId);

  /** What a tenant sees as the app role, under row-level security. */
  const asTenant = async (tenantId: string, sql: string) => {
    const app = new Client({ connectionString: cb.db.appUrl });
    await app.connect();
    try {
      await app.query('BEGIN');
      await app.query(`SELECT set_config('engram.tenant_id', $1, true)`, [tenantId]);
      return (await app.query(sql)).rows;
    } finally {
      await app.end();
    }
  };

  beforeAll(async () => {
    cb = await startServiceUnderTest({
      label: 'workspace',
      loadConfig: loadContextBuilderConfig,
      module: (config) => ContextBuilderModule.register(config),
      seed: async (seeding) => {
        await seeding.query(`INSERT INTO tenants (tenant_id) VALUES ('globex')`);
      },
    });
    ({ rpc, admin } = cb);
  });

  afterAll(async () => {
    await cb?.stop();
  });

  describe('agent profile', () => {
    it('stores a profile for a tenant that never wrote before, and reads it back', async () => {
      const put = await rpc.call(
        Rpcs.agentsPut,
        {
          agent: 'helper',
          name: 'Gerty',
          personality: 'calm, dry humour',
          job: 'station assistant',
          userName: 'Sam',
          tools: ['web_search', 'calendar', 'web_search'],
          sceneMemory: true,
          model: 'gpt-4o',
          settings: { language: 'en' },
        },
        { tenantId: 'acme' },
      );
      expect(put).toMatchObject({
        agent: 'helper',
        name: 'Gerty',
        tools: ['web_search', 'calendar'],
        sceneMemory: true,
        settings: { language: 'en' },
      });
      expect((await admin.query(`SELECT tenant_id FROM tenants WHERE tenant_id = 'acme'`)).rowCount).toBe(1);

      const got = await rpc.call(Rpcs.agentsGet, { agent: 'helper' }, { tenantId: 'acme' });
      expect(got).toMatchObject({
        agent: 'helper',
        name: 'Gerty',
        personality: 'calm, dry humour',
        job: 'station assistant',
        userName: 'Sam',
        tools: ['web_search', 'calendar'],
        sceneMemory: true,
        model: 'gpt-4o',
        settings: { language: 'en' },
      });
      expect(got.createdAt).toBeDefined();
    });

    it('replaces the whole profile on a put; the same put again changes nothing', async () => {
      const first = await rpc.call(
        Rpcs.agentsPut,
        { agent: 'helper2', name: 'Ada', job: 'coder', tools: ['shell'] },
        { tenantId: 'acme' },
      );
      const again = await rpc.call(
        Rpcs.agentsPut,
        { agent: 'helper2', name: 'Ada', job: 'coder', tools: ['shell'] },
        { tenantId: 'acme' },
      );
      expect(again.updatedAt).toEqual(first.updatedAt);
      const replaced = await rpc.call(
        Rpcs.agentsPut,
        { agent: 'helper2', name: 'Ada' },
        { tenantId: 'acme' },
      );
      expect(replaced.job).toBeUndefined();
      expect(replaced.tools).toEqual([]);
      const row = (
        await admin.query(
          `SELECT job, tools, scene_memory, settings FROM agents WHERE tenant_id = 'acme' AND agent = 'helper2'`,
        )
      ).rows[0];
      expect(row).toEqual({ job: null, tools: [], scene_memory: false, settings: {} });
    });

    it('answers NOT_FOUND for an agent without a profile, and for another tenant’s agent', async () => {
      expect((await failureOf(Rpcs.agentsGet, { agent: 'nobody' })).code).toBe('NOT_FOUND');
      expect((await failureOf(Rpcs.agentsGet, { agent: 'helper' }, 'globex')).code).toBe('NOT_FOUND');
    });

    it('refuses an invalid agent token or tool name with a structured error, and stores nothing', async () => {
      const agents = async () =>
        (await admin.query(`SELECT count(*)::int AS n FROM agents`)).rows[0].n as number;
      const before = await agents();
      const error = await failureOf(Rpcs.agentsPut, { agent: 'bad agent', tools: ['web search'] });
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details['fieldViolations']).toEqual([
        { field: 'agent', description: expect.stringMatching(/agent must be 1-64 letters/) },
        { field: 'tools', description: expect.stringMatching(/"web search"/) },
      ]);
      expect(await agents()).toBe(before);
      expect(await failureOf(Rpcs.agentsGet, { agent: 'a.b' })).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: {
          fieldViolations: [{ field: 'agent', description: expect.stringMatching(/\(got "a\.b"\)$/) }],
        },
      });
    });
  });

  describe('workspace documents', () => {
    const documents = [
      { name: 'SOUL.md', content: 'I am curious.' },
      { name: 'USER.md', content: 'Sam likes short answers.' },
      { name: 'memory/2026-11-22.md', content: 'Fixed the air recycler.' },
      { name: '2026-11-23.md', content: 'Talked to Eve.' },
      { name: 'notes.txt', content: 'scratch' },
    ];
    const rows = async (tenant = 'acme') =>
      (
        await admin.query(
          `SELECT name, kind, to_char(day, 'YYYY-MM-DD') AS day, content, updated_at FROM workspace_documents WHERE tenant_id = $1 AND agent = 'helper' ORDER BY name`,
          [tenant],
        )
      ).rows;

    it('stores workspace files by kind (daily notes with their day) and skips other files with a reason', async () => {
      const reply = await rpc.call(Rpcs.workspacePut, { agent: 'helper', documents }, { tenantId: 'acme' });
      expect(reply.stored).toEqual(['SOUL.md', 'USER.md', 'memory/2026-11-22.md', 'memory/2026-11-23.md']);
      expect(reply.skipped).toMatchObject([
        { name: 'notes.txt', reason: expect.stringMatching(/^not a workspace file/) },
      ]);
      expect((await rows()).map(({ name, kind, day, content }) => ({ name, kind, day, content }))).toEqual([
        { name: 'SOUL.md', kind: 'soul', day: null, content: 'I am curious.' },
        { name: 'USER.md', kind: 'user', day: null, content: 'Sam likes short answers.' },
        {
          name: 'memory/2026-11-22.md',
          kind: 'daily',
          day: '2026-11-22',
          content: 'Fixed the air recycler.',
        },
        { name: 'memory/2026-11-23.md', kind: 'daily', day: '2026-11-23', content: 'Talked to Eve.' },
      ]);
    });

    it('upserts by name: the same documents again add nothing and change nothing; a changed one is replaced', async () => {
      const before = await rows();
      await rpc.call(Rpcs.workspacePut, { agent: 'helper', documents }, { tenantId: 'acme' });
      expect(await rows()).toEqual(before);
      await rpc.call(
        Rpcs.workspacePut,
        { agent: 'helper', documents: [{ name: 'SOUL.md', content: 'I am very curious.' }] },
        { tenantId: 'acme' },
      );
      const after = await rows();
      expect(after).toHaveLength(4);
      expect(after.find((r) => r.name === 'SOUL.md')!.content).toBe('I am very curious.');
    });

    it('keeps one tenant’s documents, skills and profiles from another', async () => {
      await rpc.call(
        Rpcs.skillsPut,
        { agent: 'helper', files: [{ name: 'deploy.md', markdown: DEPLOY_SKILL }] },
        { tenantId: 'acme' },
      );
      for (const table of ['agents', 'workspace_documents', 'skills']) {
        expect((await asTenant('acme', `SELECT 1 FROM ${table}`)).length).toBeGreaterThan(0);
        expect(await asTenant('globex', `SELECT 1 FROM ${table}`)).toEqual([]);
      }
      // globex writes the same names for the same agent: its own rows, acme's untouched.
      await rpc.call(
        Rpcs.workspacePut,
        { agent: 'helper', documents: [{ name: 'SOUL.md', content: 'globex soul' }] },
        { tenantId: 'globex' },
      );
      expect((await rows('globex')).map((r) => r.content)).toEqual(['globex soul']);
      expect((await rows('acme')).find((r) => r.name === 'SOUL.md')!.content).toBe('I am very curious.');
    });

    it('refuses a bad agent token, an empty name, oversize content or a document given twice — and stores nothing of that request', async () => {
      const bad = await failureOf(Rpcs.workspacePut, {
        agent: 'no/slash',
        documents: [{ name: 'AGENTS.md', content: 'x' }],
      });
      expect(bad.code).toBe('INVALID_ARGUMENT');
      expect(bad.details['fieldViolations']).toEqual([
        { field: 'agent', description: expect.stringMatching(/agent must be/) },
      ]);

      const empty = await failureOf(Rpcs.workspacePut, {
        agent: 'helper',
        documents: [
          { name: 'AGENTS.md', content: 'x' },
          { name: ' ', content: 'y' },
        ],
      });
      expect(empty).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: {
          fieldViolations: [{ field: 'documents[1].name', description: 'documents[1].name is empty' }],
        },
      });

      const oversize = await failureOf(Rpcs.workspacePut, {
        agent: 'helper',
        documents: [{ name: 'TOOLS.md', content: 'x'.repeat(1_000_001) }],
      });
      expect(oversize.code).toBe('INVALID_ARGUMENT');
      expect(oversize.message).toMatch(/documents\[0\]\.content is 1000001 bytes long; at most 1000000/);

      const twice = await failureOf(Rpcs.workspacePut, {
        agent: 'helper',
        documents: [
          { name: 'memory/2026-11-22.md', content: 'a' },
          { name: '2026-11-22.md', content: 'b' },
        ],
      });
      expect(twice.message).toMatch(/both memory\/2026-11-22\.md/);

      expect(
        (await admin.query(`SELECT 1 FROM workspace_documents WHERE name IN ('AGENTS.md', 'TOOLS.md')`))
          .rowCount,
      ).toBe(0);
    });
  });

  describe('skills', () => {
    const skillRows = async () =>
      (
        await admin.query(
          `SELECT name, description, keywords, patterns, body, source, updated_at FROM skills WHERE tenant_id = 'acme' AND agent = 'helper' ORDER BY name`,
        )
      ).rows;

    it('stores valid skill files and rejects a broken one with the problem, upserting by skill name', async () => {
      const files = [
        { name: 'deploy.md', markdown: DEPLOY_SKILL },
        { name: 'broken.md', markdown: '---\nname: broken\ntriggers: [unclosed\n---\nBody' },
        { name: 'bad-pattern.md', markdown: '---\ntriggers:\n  patterns: ["deploy("]\n---\nBody' },
        { name: 'notes.md', markdown: 'Plain notes, no front matter.' },
      ];
      const reply = await rpc.call(Rpcs.skillsPut, { agent: 'helper', files }, { tenantId: 'acme' });
      expect(reply.stored).toEqual(['deploy', 'notes']);
      expect(reply.rejected).toMatchObject([
        { name: 'broken.md', reason: expect.stringMatching(/^invalid YAML front matter: /) },
        {
          name: 'bad-pattern.md',
          reason: expect.stringMatching(
            /triggers\.patterns\[0\] "deploy\(" is not a valid regular expression/,
          ),
        },
      ]);
      expect(reply.rejected[0]!.reason).toMatch(/flow|collection|\]/i);
      const stored = await skillRows();
      expect(stored.map(({ updated_at: _, ...r }) => r)).toEqual([
        {
          name: 'deploy',
          description: 'Ship a release',
          keywords: ['deploy', 'release'],
          patterns: ['roll ?back', 'v\\d+\\.\\d+'],
          body: '# Deploy\n\nRun the pipeline, then watch the dashboards.',
          source: DEPLOY_SKILL,
        },
        {
          name: 'notes',
          description: null,
          keywords: [],
          patterns: [],
          body: 'Plain notes, no front matter.',
          source: 'Plain notes, no front matter.',
        },
      ]);

      await rpc.call(Rpcs.skillsPut, { agent: 'helper', files }, { tenantId: 'acme' });
      expect(await skillRows()).toEqual(stored);
    });

    it('rejects a second file naming the same skill, and refuses a bad request as a whole', async () => {
      const reply = await rpc.call(
        Rpcs.skillsPut,
        {
          agent: 'helper',
          files: [
            { name: 'a.md', markdown: '---\nname: same\n---\nA' },
            { name: 'b.md', markdown: '---\nname: same\n---\nB' },
          ],
        },
        { tenantId: 'acme' },
      );
      expect(reply).toMatchObject({
        stored: ['same'],
        rejected: [{ name: 'b.md', reason: 'skill "same" is already given by a.md' }],
      });
      const skills = async () =>
        (await admin.query(`SELECT count(*)::int AS n FROM skills`)).rows[0].n as number;
      const before = await skills();
      const error = await failureOf(Rpcs.skillsPut, {
        agent: 'helper',
        files: [
          { name: 'fine.md', markdown: '---\nname: fine\n---\nFine' },
          { name: '', markdown: 'x' },
        ],
      });
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details['fieldViolations']).toEqual([
        { field: 'files[1].name', description: 'files[1].name is empty' },
      ]);
      expect(await skills()).toBe(before);
      const both = await failureOf(Rpcs.skillsPut, { agent: '', files: [{ name: '', markdown: 'x' }] });
      expect((both.details['fieldViolations'] as Array<{ field: string }>).map((v) => v.field)).toEqual([
        'agent',
        'files[0].name',
      ]);
    });
  });
});
