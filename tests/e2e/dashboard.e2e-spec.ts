import type { Page } from 'playwright-core';
import { brotliDecompressSync } from 'node:zlib';
import { request } from 'undici';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@engram/testing';
import { createApiKeys, openDashboard, type DashboardBrowser } from './support/dashboard-browser';

interface Fact {
  id: string;
  content: string;
}

/**
 * The memory dashboard as a user meets it: the api serving the built page at /, the services
 * behind it as processes, real NATS and Postgres, headless Chromium clicking through it.
 * Memory is seeded through the HTTP API (turns with [MEMORY:]/[STATE:] tags, agent profiles).
 */
describe('memory dashboard (headless Chromium against the api and the services behind it)', () => {
  let env: TestEnvironment;
  let ui: DashboardBrowser;
  let page: Page;
  let base: string;
  let acme: string;
  let globex: string;

  /** Seeds one tenant's agent: its profile and a conversation whose reply tags facts and a state value. */
  async function seedAgent(key: string, agent: string, name: string, reply: string): Promise<Fact[]> {
    await ui.post('/v1/agents/put', key, {
      agent,
      name,
      personality: 'Cheerful and brief',
      job: 'Keeps errands in order',
      tools: ['web_search'],
      model: 'engram-local',
    });
    await ui.post(`/v1/turns/${agent}`, key, {
      turnId: `${agent}-1`,
      sessionKey: 'errands',
      messages: [
        { role: 'user', author: 'Ada', content: 'Please remember a few things for me.' },
        {
          role: 'tool',
          toolName: 'web_search',
          toolArgs: { query: 'tea shops' },
          toolResult: { shops: 2 },
          toolCallId: 'call-1',
        },
        { role: 'assistant', content: reply },
      ],
    });
    let facts: Fact[] = [];
    await waitFor(
      `${agent}'s tagged facts to be stored`,
      async () => {
        facts = (await ui.post<{ facts: Fact[] }>('/v1/facts/list', key, { agents: [agent] })).facts;
        return facts.length === 2;
      },
      30_000,
    );
    return facts;
  }

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'dashboard',
      processes: ['gerty', 'ingest', 'retrieval', 'context-builder', 'api'],
    });
    base = `http://127.0.0.1:${env.process('api').httpPort}`;
    ui = await openDashboard(base);
    page = ui.page;
    [acme, globex] = await createApiKeys(env.env.DATABASE_URL, 'dashboard spec', ['acme', 'globex']);
    await seedAgent(
      acme,
      'bot',
      'Penny',
      'Sure, Ada. [MEMORY:sticky]Ada’s locker code is 4411.[/MEMORY] ' +
        '[MEMORY:user_preference]Ada prefers green tea.[/MEMORY][STATE:mood]cheerful[/STATE]',
    );
    await seedAgent(
      globex,
      'spy',
      'Mallory',
      'Understood. [MEMORY:sticky]The vault opens with the Zeta protocol.[/MEMORY] ' +
        '[MEMORY:user_preference]Mallory likes black coffee.[/MEMORY]',
    );
  });

  afterAll(async () => {
    await ui?.close();
    await env?.stop();
  });

  it('is served at / and at the paths it routes, beside the api’s own routes', async () => {
    let html = '';
    for (const path of ['/', '/agents/bot?x=1']) {
      const res = await request(`${base}${path}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      html = await res.body.text();
      expect(html).toContain('<div id="root"></div>');
    }
    // Its script, compressed for a browser that takes brotli, whole for one that takes nothing.
    const script = /src="(\/assets\/index-[^"]+\.js)"/.exec(html)![1]!;
    const br = await request(`${base}${script}`, { headers: { 'accept-encoding': 'br, gzip' } });
    const compressed = Buffer.from(await br.body.arrayBuffer());
    expect([br.statusCode, br.headers['content-encoding']]).toEqual([200, 'br']);
    expect(br.headers['cache-control']).toContain('immutable');
    const plain = await request(`${base}${script}`);
    const whole = Buffer.from(await plain.body.arrayBuffer());
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(brotliDecompressSync(compressed).equals(whole)).toBe(true);
    expect(compressed.length).toBeLessThan(whole.length / 2);
    for (const path of ['/v1/no-such-rpc', '/assets/no-such-file.js', '/favicon.ico']) {
      const res = await request(`${base}${path}`);
      await res.body.dump();
      expect(res.statusCode).toBe(404);
    }
    const openapi = await request(`${base}/openapi.json`);
    expect(((await openapi.body.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
  });

  it('signs in with a key from the keyboard, in a page with no serious accessibility violations', async () => {
    await page.goto(`${base}/`);
    expect(await ui.seriousViolations()).toEqual([]);
    expect(await ui.fitsWidth()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string | null>("document.activeElement.getAttribute('type')")).toBe(
      'password',
    );
    await page.keyboard.type('egm_not-a-real-key');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText('That key is not valid.').waitFor();
    expect(await ui.seriousViolations()).toEqual([]);

    await ui.signIn(acme);
    expect(await page.evaluate<string | null>("sessionStorage.getItem('engram.apiKey')")).toBe(acme);
    await page.getByRole('link', { name: 'Penny (bot)' }).waitFor();
    await page.getByText('2 facts', { exact: false }).waitFor();
    expect(await page.getByText('Job: Keeps errands in order').count()).toBe(1);
    expect(await ui.seriousViolations()).toEqual([]);
    expect(await ui.fitsWidth()).toBe(true);
  });

  it('opens the agent: profile, state, facts by category with the sticky one starred', async () => {
    await page.getByRole('link', { name: 'Penny (bot)' }).click();
    await page.getByRole('heading', { name: 'Agent bot' }).waitFor();
    const locker = page.getByRole('article').filter({ hasText: 'Ada’s locker code is 4411.' });
    const tea = page.getByRole('article').filter({ hasText: 'Ada prefers green tea.' });
    await locker.waitFor();
    expect(await locker.getByRole('img', { name: 'Sticky' }).count()).toBe(1);
    expect(await tea.getByRole('img', { name: 'Sticky' }).count()).toBe(0);
    expect(await tea.getByText(/\d+ d left/).count()).toBe(1);
    await page.getByRole('cell', { name: 'cheerful' }).waitFor();
    expect(await page.getByText('Personality: Cheerful and brief').count()).toBe(1);
    expect(await ui.seriousViolations()).toEqual([]);
    expect(await ui.fitsWidth()).toBe(true);
    await ui.screenshotForDocs('agent-memory');
  });

  it('forgets a fact after a confirmation, and memory_search no longer finds it', async () => {
    const findTea = async () =>
      (
        await ui.post<{ hits: Array<{ kind: string; content: string }> }>('/v1/search', acme, {
          query: 'green tea',
          filters: { kinds: ['fact'] },
          consistency: 'strong',
          recordAccess: false,
        })
      ).hits.filter((hit) => hit.content.includes('green tea'));
    expect(await findTea()).toHaveLength(1);

    const tea = page.getByRole('article').filter({ hasText: 'Ada prefers green tea.' });
    await tea.getByRole('button', { name: 'Forget' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget this fact?' });
    await dialog.waitFor();
    expect(await ui.seriousViolations()).toEqual([]);
    await dialog.getByLabel('Reason (optional)').fill('Ada switched to coffee');
    await dialog.getByRole('button', { name: 'Forget fact' }).click();
    await tea.waitFor({ state: 'detached' });

    expect(await findTea()).toEqual([]);
    expect(await page.getByText('Ada’s locker code is 4411.').count()).toBe(1);
  });

  it('edits a fact’s text: a new version supersedes it, and its history shows both', async () => {
    const locker = page.getByRole('article').filter({ hasText: 'Ada’s locker code is 4411.' });
    await locker.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit fact' });
    await dialog.getByLabel('Fact text').fill('Ada’s locker code is 4412.');
    expect(await ui.seriousViolations()).toEqual([]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const edited = page.getByRole('article').filter({ hasText: 'Ada’s locker code is 4412.' });
    await edited.waitFor();
    expect(await locker.count()).toBe(0);
    expect(await edited.getByRole('img', { name: 'Sticky' }).count()).toBe(1);

    await edited.getByRole('button', { name: 'History' }).click();
    const history = page.getByRole('dialog', { name: 'Fact history' });
    await history.getByText(/^UPDATE/).waitFor();
    expect(await history.getByText(/^ADD/).count()).toBe(1);
    expect(await ui.seriousViolations()).toEqual([]);
    await page.keyboard.press('Escape');
    await history.waitFor({ state: 'detached' });
  });

  it('searches memory with mode and filters, each hit with its kind, score and why it scored', async () => {
    await page.getByRole('link', { name: 'Search' }).click();
    await page.getByLabel('Query').fill('locker code');
    await page.getByRole('checkbox', { name: 'fact' }).check();
    await page.getByRole('button', { name: 'Search' }).click();
    const hit = page.locator('[data-ref^="fact:"]').filter({ hasText: 'Ada’s locker code is 4412.' });
    await hit.waitFor();
    expect(await hit.getByText(/^score \d+\.\d{3}$/).count()).toBe(1);
    expect(await hit.getByText(/full text \d\.\d\d/).count()).toBe(1);
    expect(await ui.seriousViolations()).toEqual([]);
    expect(await ui.fitsWidth()).toBe(true);
  });

  it('lists conversations; drills from a fact to its source message; shows tool calls as calls', async () => {
    await page.getByRole('link', { name: 'Conversations' }).click();
    await page.getByRole('link', { name: 'errands' }).waitFor();
    expect(await ui.seriousViolations()).toEqual([]);
    await page.getByLabel('Search conversations').fill('no such session');
    expect(await page.getByRole('link', { name: 'errands' }).count()).toBe(0);

    await page.goto(`${base}/agents/bot`);
    const locker = page.getByRole('article').filter({ hasText: 'Ada’s locker code is 4412.' });
    await locker.getByRole('link', { name: /^conversation \d+$/ }).click();
    const source = page.locator('li[aria-current="true"]');
    await source.waitFor();
    expect(await source.innerText()).toContain('Sure, Ada.');
    expect(await page.getByText('Please remember a few things for me.').count()).toBe(1);
    expect(await page.getByText('web_search({"query":"tea shops"})', { exact: false }).count()).toBe(1);
    expect(await ui.seriousViolations()).toEqual([]);
    expect(await ui.fitsWidth()).toBe(true);
  });

  it('shows each service’s health and the tenant’s own dead letters, and re-drives one', async () => {
    // Turns ingest refuses, published straight to NATS (the HTTP route would refuse them first).
    await env.js.publish('mem.turn.acme.bot', 'not json at all', { msgID: 'health-acme' });
    await env.js.publish('mem.turn.globex.spy', 'globex junk', { msgID: 'health-globex' });
    await page.getByRole('link', { name: 'Health' }).click();
    await page.getByRole('heading', { name: 'Health' }).waitFor();
    // Heartbeats come every 5 s; the page asks again every 10 s.
    await page.getByRole('article', { name: 'ingest: up' }).waitFor({ timeout: 30_000 });
    await page.getByRole('article', { name: 'compactor: down' }).waitFor();
    await page.getByRole('figure').filter({ hasText: 'Messages stored per minute' }).waitFor();
    const letter = page.getByRole('article').filter({ hasText: 'not json at all' });
    await letter.waitFor({ timeout: 30_000 });
    expect(await page.getByText('globex junk').count()).toBe(0);
    expect(await ui.seriousViolations()).toEqual([]);
    expect(await ui.fitsWidth()).toBe(true);

    const label = (await letter.getAttribute('aria-label'))!;
    await letter.getByRole('button', { name: /^Re-drive letter/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Re-drive', exact: true }).click();
    await page.getByRole('article', { name: label }).waitFor({ state: 'detached' });
    // Still not a turn: ingest gives up on it again, and it comes back as a new letter.
    await page
      .getByRole('article')
      .filter({ hasText: 'not json at all' })
      .and(page.locator(`:not([aria-label="${label}"])`))
      .waitFor({ timeout: 30_000 });
  });

  it('shows the key’s tenant only, and signing out forgets the key', async () => {
    // Each page once it has loaded (what it waits for is acme's own data, or the sign of none).
    const pages: Array<[string, string]> = [
      ['/agents', 'Penny (bot)'],
      ['/agents/spy', 'No facts.'],
      ['/conversations', 'errands'],
    ];
    for (const [path, loaded] of pages) {
      await page.goto(`${base}${path}`);
      await page.getByText(loaded, { exact: true }).waitFor();
      const text = await page.locator('main').innerText();
      expect(text).not.toContain('Mallory');
      expect(text).not.toContain('Zeta');
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate<string | null>("sessionStorage.getItem('engram.apiKey')")).toBeNull();

    await ui.signIn(globex);
    await page.getByRole('link', { name: 'Mallory (spy)' }).waitFor();
    expect(await page.locator('main').innerText()).not.toContain('Penny');
  });
});
