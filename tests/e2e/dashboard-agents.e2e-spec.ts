import type { Page } from 'playwright-core';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@engram/testing';
import { createApiKeys, openDashboard, type DashboardBrowser } from './support/dashboard-browser';

interface AgentSummary {
  agent: string;
  messages: string;
  conversations: string;
  openFacts: string;
  sceneNodes: string;
}

/**
 * The dashboard's Agents page and agent page against the api and the services behind it:
 * the cards show what mem.rpc.agents.list answers, the tenant's memoryEnabled switch
 * round-trips through mem.rpc.tenant.settings, and an agent's facts come a page at a time.
 */
describe('dashboard agents, memory switch and fact pages (headless Chromium, real services)', () => {
  let env: TestEnvironment;
  let ui: DashboardBrowser;
  let page: Page;
  let base: string;
  let key: string;

  const post = <T>(path: string, body: unknown) => ui.post<T>(path, key, body);

  const memoryEnabled = async () =>
    (await post<{ memoryEnabled: boolean }>('/v1/tenant/settings/get', {})).memoryEnabled;

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'dashboard-agents',
      processes: ['ingest', 'retrieval', 'context-builder', 'api'],
    });
    base = `http://127.0.0.1:${env.process('api').httpPort}`;
    ui = await openDashboard(base);
    page = ui.page;
    [key] = await createApiKeys(env.env.DATABASE_URL, 'dashboard agents spec', ['acme']);

    await post('/v1/agent/put', { agent: 'bot', name: 'Penny', job: 'Keeps errands in order', tools: [] });
    await post('/v1/agent/put', { agent: 'quiet', name: 'Quinn', tools: [] });
    await post('/v1/turns/bot', {
      turnId: 'bot-1',
      sessionKey: 'errands',
      messages: [
        { role: 'user', author: 'Ada', content: 'Remember my locker code.' },
        { role: 'assistant', content: 'Done. [MEMORY:sticky]Ada’s locker code is 4411.[/MEMORY]' },
      ],
    });
    await waitFor(
      'the tagged fact',
      async () =>
        (await post<{ facts: unknown[] }>('/v1/facts/list', { agents: ['bot'] })).facts.length === 1,
      30_000,
    );
    // Sixty more facts, older than the tagged one: two pages of the agent's facts.
    await env.sql(
      `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key, valid_from, created_at)
       SELECT 'acme', 'bot', 'Paged fact number ' || i, 'general', 'sticky', 5, 'saved', 'paged:' || i,
              now() - make_interval(days => i), now() - make_interval(days => i)
         FROM generate_series(1, 60) i`,
    );
    await ui.signIn(key);
  });

  afterAll(async () => {
    await ui?.close();
    await env?.stop();
  });

  it('shows each agent with the profile and counts that agents/list answers', async () => {
    const { agents } = await post<{ agents: AgentSummary[] }>('/v1/agents/list', {});
    expect(agents.map((a) => a.agent)).toEqual(['bot', 'quiet']);
    expect(agents[0]).toMatchObject({ messages: '2', conversations: '1', openFacts: '61', sceneNodes: '0' });

    const bot = page.getByRole('article', { name: 'Penny (bot)' });
    await bot.getByText('2 messages · 1 conversation · 61 facts · 0 scene nodes').waitFor();
    expect(await bot.getByText('Job: Keeps errands in order').count()).toBe(1);
    const quiet = page.getByRole('article', { name: 'Quinn (quiet)' });
    await quiet.getByText('0 messages · 0 conversations · 0 facts · 0 scene nodes').waitFor();
    expect(await quiet.getByText('Last activity: —').count()).toBe(1);
    expect(await ui.seriousViolations()).toEqual([]);
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(
      true,
    );
  });

  it('turns the tenant’s memory off and on again from a labelled switch', async () => {
    const memory = page.getByRole('switch', { name: 'Derive memory from conversations' });
    await waitFor('the switch to show the setting', async () => memory.isChecked(), 10_000);
    expect(await memoryEnabled()).toBe(true);
    await expect(memory.getAttribute('aria-describedby')).resolves.toBeTruthy();
    expect(await page.getByText('every message is still kept in the transcript').count()).toBe(1);

    await memory.focus();
    await page.keyboard.press('Space');
    await waitFor('settings.get to say memory is off', async () => !(await memoryEnabled()), 10_000);
    await page.reload();
    await waitFor(
      'the reloaded switch to be off',
      async () => (await memory.count()) === 1 && !(await memory.isChecked()),
      10_000,
    );

    await memory.click();
    // The switch follows the server's answer, so the server may store the setting before it turns.
    await waitFor('the switch to show memory on', () => memory.isChecked(), 10_000);
    expect(await memoryEnabled()).toBe(true);
    expect(await ui.seriousViolations()).toEqual([]);
  });

  it('pages through an agent’s facts', async () => {
    await page.goto(`${base}/agents/bot`);
    await page.getByText('61 facts, newest first · showing 1–50').waitFor();
    // The first screenful is drawn first; the rest of the page's cards follow in the background.
    await waitFor(
      'the page’s 50 fact cards',
      async () => (await page.locator('[data-fact-id]').count()) === 50,
      10_000,
    );
    expect(await page.getByText('Ada’s locker code is 4411.').count()).toBe(1);

    await page
      .getByRole('navigation', { name: 'Pages of facts' })
      .getByRole('button', { name: 'Page 2' })
      .click();
    await page.getByText('61 facts, newest first · showing 51–61').waitFor();
    await waitFor(
      'the second page’s 11 fact cards',
      async () => (await page.locator('[data-fact-id]').count()) === 11,
      10_000,
    );
    expect(await page.getByText('Paged fact number 60', { exact: true }).count()).toBe(1);
    expect(await page.getByText('Ada’s locker code is 4411.').count()).toBe(0);
    expect(await ui.seriousViolations()).toEqual([]);
  });
});
