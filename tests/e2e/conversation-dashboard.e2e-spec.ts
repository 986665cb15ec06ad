import type { Page } from 'playwright-core';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@engram/testing';
import { createApiKeys, openDashboard, type DashboardBrowser } from './support/dashboard-browser';

const PLACES = ['Lisbon', 'Porto', 'Berlin', 'Kyoto', 'Oslo', 'Quito', 'Dakar', 'Hanoi', 'Lima', 'Perth'];
/** Turns of the long conversation: 120 messages, more than two transcript pages of 50. */
const TURNS = 60;
/** ~300 characters (~75 tokens) a message: 120 of them pass 75 % of the 8,192-token default window. */
const PAD =
  ' Could you remind me what the weather was like there and whether the old harbour district is still worth a long visit?';
const user = (t: number) =>
  `Day ${t}: I visited ${PLACES[t % PLACES.length]} with my cousin number ${t}.${PAD}${PAD}`.slice(0, 300);
const assistant = (t: number) =>
  `Noted for day ${t}: ${PLACES[t % PLACES.length]} sounds memorable, the harbour district there is lovely in spring.`.padEnd(
    300,
    ' .',
  );

/**
 * Conversations in the dashboard as a user meets them, with everything that makes them real:
 * turns through the HTTP API, ingest storing them, the compactor compacting the long session
 * (Gerty's built-in model summarising), retrieval and the api serving the page, headless
 * Chromium at 360 px. The list is searched by title, the transcript opens at its newest
 * messages and reads older ones as it is scrolled up, the session's compactions are shown,
 * and a search asks for a synthesis.
 */
describe('conversations and search in the dashboard (headless Chromium; ingest, compactor, Gerty)', () => {
  let env: TestEnvironment;
  let ui: DashboardBrowser;
  let page: Page;
  let acme: string;
  let conversationId: string;

  const transcriptBox = () => page.getByRole('region', { name: 'Transcript messages, oldest at the top' });
  const messages = () => transcriptBox().locator('li[data-message-id]');
  /** Whether the message saying `text` is within the transcript box's visible part. */
  const inView = (text: string) =>
    messages()
      .filter({ hasText: text })
      .evaluate((li) => {
        const box = li.closest('[role="region"]')!.getBoundingClientRect();
        const r = li.getBoundingClientRect();
        return r.bottom > box.top && r.top < box.bottom;
      });

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'conversation_dashboard',
      processes: ['gerty', 'ingest', 'compactor', 'retrieval', 'api'],
    });
    ui = await openDashboard(`http://127.0.0.1:${env.process('api').httpPort}`);
    page = ui.page;
    let globex: string;
    [acme, globex] = await createApiKeys(env.env.DATABASE_URL, 'conversation dashboard spec', [
      'acme',
      'globex',
    ]);

    const start = Date.parse('2026-03-01T09:00:00Z');
    // Each turn says when it happened, so the order is theirs whichever is stored first.
    const turns = Array.from({ length: TURNS }, (_, t) =>
      ui.post('/v1/turns/helper', acme, {
        turnId: `harbour-${t}`,
        sessionKey: 'harbour',
        title: 'Harbour travel diary',
        occurredAt: new Date(start + t * 60_000).toISOString(),
        messages: [
          { role: 'user', author: 'Ada', content: user(t) },
          { role: 'assistant', author: 'helper', content: assistant(t) },
        ],
      }),
    );
    await Promise.all(turns);
    await ui.post('/v1/turns/helper', acme, {
      turnId: 'groceries-1',
      sessionKey: 'groceries',
      title: 'Weekly groceries',
      messages: [{ role: 'user', author: 'Ada', content: 'Buy oat milk and lemons.' }],
    });
    await ui.post('/v1/turns/spy', globex, {
      turnId: 'smuggling-1',
      sessionKey: 'smuggling',
      title: 'Harbour smuggling plans',
      messages: [{ role: 'user', author: 'Mallory', content: 'The crates land at pier 9.' }],
    });
    await waitFor(
      'the long session to be stored and compacted',
      async () =>
        (await env.count(
          `SELECT count(*) AS n FROM compactions k JOIN conversations c ON c.id = k.conversation_id
            WHERE c.tenant_id = 'acme' AND c.session_key = 'harbour'`,
        )) > 0,
      45_000,
    );
    conversationId = (
      await env.sql<{ id: string }>(
        `SELECT id::text FROM conversations WHERE tenant_id = 'acme' AND session_key = 'harbour'`,
      )
    )[0]!.id;
    await waitFor(
      'the other conversations to be stored',
      async () => (await env.count(`SELECT count(*) AS n FROM conversations`)) === 3,
      10_000,
    );

    await ui.signIn(acme);
  }, 120_000);

  afterAll(async () => {
    await ui?.close();
    await env?.stop();
  });

  it('finds a conversation by words of its title, and nothing of another tenant’s', async () => {
    await page.getByRole('link', { name: 'Conversations' }).click();
    await page.getByRole('link', { name: 'Weekly groceries' }).waitFor();
    await page.getByLabel('Search conversations').fill('harbour DIARY');
    await page.getByRole('status').getByText('1 conversation matching “harbour DIARY”').waitFor();
    expect(await page.getByRole('link', { name: 'Harbour travel diary' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Weekly groceries' }).count()).toBe(0);
    await page.getByLabel('Search conversations').fill('harbour');
    await page.getByRole('status').getByText('1 conversation matching “harbour”').waitFor();
    expect(await page.locator('main').innerText()).not.toContain('smuggling');
    expect(await ui.seriousViolations()).toEqual([]);
    expect(await ui.fitsWidth()).toBe(true);
  });

  it('opens the transcript at the newest messages and reads older ones as it is scrolled up', async () => {
    await page.getByRole('link', { name: 'Harbour travel diary' }).click();
    await messages().first().waitFor();
    // One page (50) of the 120, the newest, scrolled to the bottom.
    expect(await messages().count()).toBe(50);
    expect(await messages().last().innerText()).toContain(`Noted for day ${TURNS - 1}:`);
    expect(await inView(`Noted for day ${TURNS - 1}:`)).toBe(true);
    expect(await messages().filter({ hasText: 'Day 0: I visited' }).count()).toBe(0);

    // From the keyboard: the button at the top reads the page before.
    await transcriptBox().getByRole('button', { name: 'Load older messages' }).focus();
    await page.keyboard.press('Enter');
    await waitFor('an older page', async () => (await messages().count()) >= 100, 10_000);

    // Scrolling up to the top reads the rest, down to the first message.
    await waitFor(
      'the first message',
      async () => {
        await transcriptBox().evaluate((el) => {
          el.scrollTop = 0;
        });
        return (await messages().filter({ hasText: 'Day 0: I visited' }).count()) === 1;
      },
      20_000,
      300,
    );
    await transcriptBox().getByText('Start of the conversation').waitFor();
    const texts = await messages().allInnerTexts();
    expect(texts).toHaveLength(2 * TURNS);
    expect(texts[0]).toContain('Day 0: I visited Lisbon');
    expect(texts.at(-1)).toContain(`Noted for day ${TURNS - 1}:`);
    expect(await ui.seriousViolations()).toEqual([]);
    expect(await ui.fitsWidth()).toBe(true);
  });

  it('shows the session’s compactions as the compactor made them, linked into the transcript', async () => {
    const rows = await env.sql<{ content: string; message_count: number; model: string; first: string }>(
      `SELECT content, message_count, model, first_message_id::text AS first FROM compactions WHERE conversation_id = $1 ORDER BY id`,
      [conversationId],
    );
    const section = page.getByRole('region', { name: 'Session compactions' });
    const steps = section.locator('li[data-compaction-id]');
    await steps.first().waitFor();
    expect(await steps.count()).toBe(rows.length);
    const first = steps.first();
    expect(await first.innerText()).toContain(`${rows[0]!.message_count} messages`);
    expect(await first.innerText()).toContain(rows[0]!.model);
    expect(await first.innerText()).toContain(rows[0]!.content.slice(0, 40));
    await first.getByRole('link', { name: `message ${rows[0]!.first}`, exact: true }).click();
    const linked = page.locator('li[aria-current="true"]');
    await linked.waitFor();
    expect(await linked.getAttribute('data-message-id')).toBe(rows[0]!.first);
    expect(await ui.seriousViolations()).toEqual([]);
    expect(await ui.fitsWidth()).toBe(true);
  });

  it('searches with a synthesis written by the built-in model', async () => {
    await page.getByRole('link', { name: 'Search' }).click();
    await page.getByLabel('Query').fill('Which city did I visit with my cousin number 7?');
    await page.getByRole('switch', { name: 'Synthesize an answer from the hits' }).check();
    await page.getByRole('button', { name: 'Search' }).click();
    const synthesis = page.getByRole('region', { name: 'Synthesis' });
    await synthesis.waitFor({ timeout: 15_000 });
    expect(await synthesis.innerText()).toMatch(/written by engram-local-rules-v1/);
    expect(await synthesis.innerText()).toMatch(/Cites message:\d+/);
    expect(await ui.seriousViolations()).toEqual([]);
    expect(await ui.fitsWidth()).toBe(true);
  });

  it('opens a summary hit’s sources on demand when the search did not expand them', async () => {
    await waitFor(
      'a leaf summary of the long session',
      async () =>
        (await env.count(`SELECT count(*) AS n FROM summaries WHERE conversation_id = $1`, [
          conversationId,
        ])) > 0,
      20_000,
    );
    await page.getByRole('switch', { name: 'Synthesize an answer from the hits' }).uncheck();
    await page.getByRole('switch', { name: 'Expand summaries and facts to their sources' }).uncheck();
    await page.getByLabel('Query').fill('harbour');
    await page.getByRole('checkbox', { name: 'summary' }).check();
    await page.getByRole('button', { name: 'Search' }).click();
    const hit = page.locator('[data-ref^="summary:"]').first();
    await hit.waitFor();
    const ref = (await hit.getAttribute('data-ref'))!;
    const leaf = (
      await env.sql<{ n: string }>(`SELECT count(*) AS n FROM summary_sources WHERE summary_id = $1`, [
        ref.slice('summary:'.length),
      ])
    )[0]!.n;
    const show = hit.getByRole('button', { name: 'Show sources' });
    await show.focus();
    await page.keyboard.press('Enter');
    const sources = page.getByRole('list', { name: `Sources of ${ref}` });
    await sources.locator('li').first().waitFor();
    expect(await sources.locator('li').count()).toBe(Number(leaf));
    expect(await hit.getByRole('button', { name: 'Hide sources' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
    expect(await ui.seriousViolations()).toEqual([]);
    expect(await ui.fitsWidth()).toBe(true);
  });
});
