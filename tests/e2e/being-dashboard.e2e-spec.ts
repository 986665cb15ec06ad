import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { request } from 'undici';
import { DataSource } from 'typeorm';
import { ApiKeyStore, createDataSource } from '@engram/store';
import {
  startService,
  startTestEnvironment,
  type ServiceProcess,
  type TestEnvironment,
} from '@engram/testing';

/** Debian's chromium package (scripts/provision.sh installs it): nothing is downloaded at test time. */
const CHROMIUM = '/usr/bin/chromium';

interface PatrolReport {
  runId: string;
}

interface SceneNode {
  id: string;
  action: string;
  pinned: boolean;
}

/**
 * The dashboard's being memory page as a user meets it, at 360 px: a being seeded through the
 * HTTP API (scene notes, a note, a patrol run), its cluster tree with counts by status, a
 * scene opened with its importance curve, pinned, and a patrol run from the page showing what
 * each step changed. The api and the services behind it as processes, real NATS and Postgres.
 */
describe('being memory dashboard (headless Chromium against the api and the services behind it)', () => {
  let env: TestEnvironment;
  const services: ServiceProcess[] = [];
  let dataSource: DataSource;
  let browser: Browser;
  let page: Page;
  let base: string;
  let key: string;
  let firstRun: string;

  async function post<T>(path: string, body: unknown): Promise<T> {
    const res = await request(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.body.json()) as T;
    if (res.statusCode >= 300) throw new Error(`${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json;
  }

  async function seriousViolations(): Promise<string[]> {
    const { violations } = await new AxeBuilder({ page }).analyze();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  const fitsWidth = () => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

  beforeAll(async () => {
    // Gerty first (it loads its built-in model), then the rest: started together on a busy
    // machine they would starve each other past their readiness deadline. Retrieval answers the
    // sign-in's check of the key, context-builder the agent page's profile.
    env = await startTestEnvironment({ label: 'being_dashboard', processes: ['gerty'] });
    for (const [name, own] of [
      ['patrol', { PATROL_EVERY_MS: '0' }],
      ['retrieval', {}],
      ['context-builder', {}],
      ['api', {}],
    ] as const)
      services.push(await startService(name, { ...env.env, ...own }));
    await Promise.all(services.map((s) => s.waitUntilReady(60_000)));
    base = `http://127.0.0.1:${services.find((s) => s.name === 'api')!.httpPort}`;
    dataSource = createDataSource(env.env.DATABASE_URL, {
      poolSize: 1,
      applicationName: 'being-dashboard-spec',
    });
    await dataSource.initialize();
    key = (await new ApiKeyStore(dataSource).create('acme', 'being dashboard spec')).key;

    await post('/v1/being/scene/add', {
      agent: 'wren',
      scene: JSON.stringify({
        action: 'walked the dog along the river at dawn',
        actors: ['me', 'Sam'],
        when: ['2026-11-20'],
        setting: 'the river path',
        dialogue: ['Look, a heron!'],
        sensory: ['cold mist'],
        feeling: 'peaceful',
      }),
      importance: 0.7,
    });
    await post('/v1/being/note/add', { agent: 'wren', kind: 'todo', content: 'Buy birdseed' });
    firstRun = (await post<PatrolReport>('/v1/patrol/run', { agent: 'wren' })).runId;
    // A sub-cluster under Private holding the scene, as a split by a language model would leave
    // it, and a diary day and think note as such a patrol writes them (this one has no model).
    const [{ id: mornings }] = (
      await env.admin.query<{ id: string }>(
        `INSERT INTO clusters (tenant_id, agent, name, parent_id)
         SELECT 'acme', 'wren', 'Mornings', id FROM clusters WHERE agent = 'wren' AND root = 'private'
         RETURNING id::text`,
      )
    ).rows as [{ id: string }];
    await env.admin.query(`UPDATE memory_nodes SET cluster_id = $1 WHERE agent = 'wren'`, [mornings]);
    await env.admin.query(
      `INSERT INTO diary (tenant_id, agent, day, content) VALUES ('acme', 'wren', '2026-11-20', 'A misty walk with Sam.');
       INSERT INTO think_notes (tenant_id, agent, content) VALUES ('acme', 'wren', 'Ask Sam about the heron.')`,
    );

    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await (await browser.newContext({ viewport: { width: 360, height: 780 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await dataSource?.destroy();
    for (const service of services.reverse()) {
      service.kill();
      await service.exited;
    }
    await env?.stop();
  });

  it('shows the cluster tree with counts, a scene with its curve, pins it, and runs a patrol', async () => {
    await page.goto(`${base}/`);
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
    await page.goto(`${base}/agents/wren`);
    await page.getByRole('link', { name: 'Being memory' }).click();
    await page.getByRole('heading', { name: 'Being memory of wren' }).waitFor();

    // The tree: two roots, the sub-cluster under Private, counts by status (own, and with sub-clusters).
    const clusters = page.getByRole('region', { name: 'Clusters' });
    const privateRoot = clusters
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: 'Private', exact: true }) });
    await privateRoot
      .getByText('0 active, 0 dying, 0 dead · with sub-clusters 1 active, 0 dying, 0 dead')
      .waitFor();
    expect(await clusters.getByRole('button', { name: 'Business', exact: true }).count()).toBe(1);
    const toggle = clusters.getByRole('button', { name: 'Hide the sub-clusters of Private' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await clusters.getByRole('button', { name: 'Mornings' }).click();

    // The cluster's scene, opened: its parts and its curve from the run that made it.
    const scenes = page.getByRole('region', { name: 'Scenes in Mornings' });
    await scenes.getByText('walked the dog along the river at dawn').waitFor();
    await scenes.getByRole('button', { name: /^Open scene/ }).click();
    const detail = page.locator('[data-scene-detail]');
    await detail.getByText('peaceful').waitFor();
    await detail.getByText('the river path').waitFor();
    await detail.getByText('“Look, a heron!”').waitFor();
    const curve = detail.getByRole('table', { name: /^Importance of scene/ });
    await curve.getByRole('cell', { name: `run ${firstRun} (made)` }).waitFor();
    await curve.getByRole('cell', { name: `run ${firstRun}`, exact: true }).waitFor();
    expect(await detail.locator('.recharts-line').count()).toBe(2);

    // The diary, think notes and notes.
    await page
      .getByRole('article', { name: 'Diary 2026-11-20' })
      .getByText('A misty walk with Sam.')
      .waitFor();
    await page.getByText('Ask Sam about the heron.').waitFor();
    await page.getByRole('region', { name: 'Notes' }).getByText('Buy birdseed').waitFor();

    expect(await seriousViolations()).toEqual([]);
    expect(await fitsWidth()).toBe(true);

    // Pin: the page says so, and so does the being's memory.
    await detail.getByRole('button', { name: 'Pin scene' }).click();
    await detail.getByRole('button', { name: 'Unpin scene' }).waitFor();
    const stored = await post<{ nodes: SceneNode[] }>('/v1/being/nodes/list', { agent: 'wren' });
    expect(stored.nodes.map((n) => n.pinned)).toEqual([true]);

    // A patrol from the page: its report step by step, and the scene's curve one run longer.
    await page.getByRole('button', { name: 'Run patrol' }).click();
    const report = page.getByRole('table', { name: /^What patrol run \d+ changed$/ });
    await report.waitFor();
    const run = /run (\d+)/.exec((await report.getAttribute('aria-label'))!)![1]!;
    expect(run).not.toBe(firstRun);
    await report.getByRole('row', { name: 'sessions nodes 1' }).waitFor();
    const decay = report
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'decay', exact: true }) });
    for (const count of ['dying 0', 'dead 0', 'recovered 0']) await decay.getByText(count).waitFor();
    await report.getByRole('row', { name: 'diary skipped: no model' }).waitFor();
    await curve.getByRole('cell', { name: `run ${run}`, exact: true }).waitFor();
    // ❼ gave the lone scene of Mornings back to Private: the tree is read again, the scene still open.
    await privateRoot.getByText('1 active, 0 dying, 0 dead', { exact: true }).waitFor();
    expect(await clusters.getByRole('button', { name: 'Mornings' }).count()).toBe(0);
    await detail.getByText('peaceful').waitFor();

    expect(await seriousViolations()).toEqual([]);
    expect(await fitsWidth()).toBe(true);
  });

  it('says so for an agent that is not a being', async () => {
    await page.goto(`${base}/agents/nobody/being`);
    await page.getByText('Agent nobody is not a being yet').waitFor();
  });
});
