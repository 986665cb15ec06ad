import type { Page } from 'playwright-core';
import { startTestEnvironment, type TestEnvironment } from '@engram/testing';
import { createApiKeys, openDashboard, type DashboardBrowser } from './support/dashboard-browser';

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
  let ui: DashboardBrowser;
  let page: Page;
  let base: string;
  let key: string;
  let firstRun: string;

  const post = <T>(path: string, body: unknown) => ui.post<T>(path, key, body);

  beforeAll(async () => {
    // Retrieval answers the sign-in's check of the key, context-builder the agent page's profile;
    // patrol runs only when asked.
    env = await startTestEnvironment({
      label: 'being_dashboard',
      processes: [
        'gerty',
        { name: 'patrol', env: { PATROL_EVERY_MS: '0' } },
        'retrieval',
        'context-builder',
        'api',
      ],
    });
    base = `http://127.0.0.1:${env.process('api').httpPort}`;
    ui = await openDashboard(base);
    page = ui.page;
    [key] = await createApiKeys(env.env.DATABASE_URL, 'being dashboard spec', ['acme']);

    await post('/v1/being/scenes/add', {
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
    await post('/v1/being/notes/add', { agent: 'wren', kind: 'todo', content: 'Buy birdseed' });
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
  });

  afterAll(async () => {
    await ui?.close();
    await env?.stop();
  });

  it('shows the cluster tree with counts, a scene with its curve, pins it, and runs a patrol', async () => {
    await ui.signIn(key);
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

    expect(await ui.seriousViolations()).toEqual([]);
    expect(await ui.fitsWidth()).toBe(true);
    await ui.screenshotForDocs('being-memory');

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
    for (const count of ['dying 0', 'recovered 0']) await decay.getByText(count).waitFor();
    await report.getByRole('row', { name: 'diary skipped: no model' }).waitFor();
    await curve.getByRole('cell', { name: `run ${run}`, exact: true }).waitFor();
    // ❼ gave the lone scene of Mornings back to Private: the tree is read again, the scene still open.
    await privateRoot.getByText('1 active, 0 dying, 0 dead', { exact: true }).waitFor();
    expect(await clusters.getByRole('button', { name: 'Mornings' }).count()).toBe(0);
    await detail.getByText('peaceful').waitFor();

    expect(await ui.seriousViolations()).toEqual([]);
    expect(await ui.fitsWidth()).toBe(true);
  });

  it('says so for an agent that is not a being', async () => {
    await page.goto(`${base}/agents/nobody/being`);
    await page.getByText('Agent nobody is not a being yet').waitFor();
  });
});
