import type { Client } from 'pg';
import type { Page } from 'playwright-core';
import { startTestEnvironment, type TestEnvironment } from '@engram/testing';
import { createApiKeys, openDashboard, type DashboardBrowser } from './support/dashboard-browser';

/** Four turns of one conversation, summarised two by two. */
const CHAT = [
  'I am planning a trip to Kyoto in April.',
  'Cherry blossom season: book the ryokan early.',
  'My budget is 2000 euros for the week.',
  'That covers the ryokan and a rail pass.',
];

/**
 * A conversation's summary tree in the dashboard: the api serving the page and retrieval behind
 * it as processes, real NATS and Postgres, headless Chromium at 360 px. The tree is seeded in
 * Postgres as the compactor leaves it (a root over a branch over two leaves over four
 * messages), with another tenant's conversation and summary beside it.
 */
describe('summary tree in the dashboard (headless Chromium against the api and retrieval)', () => {
  let env: TestEnvironment;
  let ui: DashboardBrowser;
  let page: Page;
  let base: string;
  let acme: string;
  const ids = { chat: '', theirs: '', messages: [] as string[] };

  const one = async (admin: Client, text: string, params: unknown[]) =>
    String((await admin.query(text, params)).rows[0].id);

  /** A summary of the conversation over its children (ordinal = their order). */
  async function summary(
    admin: Client,
    tenant: string,
    conversationId: string,
    depth: number,
    content: string,
    children: Array<['message' | 'summary', string]>,
  ) {
    const id = await one(
      admin,
      `INSERT INTO summaries (tenant_id, conversation_id, agent, depth, content, earliest_at, latest_at, message_count, token_estimate, model)
       VALUES ($1, $2, 'planner', $3, $4, '2026-04-01T09:00Z', '2026-04-01T09:30Z', 2, 20, 'test') RETURNING id`,
      [tenant, conversationId, depth, content],
    );
    for (const [i, [kind, child]] of children.entries())
      await admin.query(
        `INSERT INTO summary_sources (tenant_id, summary_id, source_kind, source_id, ordinal) VALUES ($1, $2, $3, $4, $5)`,
        [tenant, id, kind, child, i],
      );
    return id;
  }

  async function seed(admin: Client) {
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    const conversation = (tenant: string, key: string) =>
      one(
        admin,
        `INSERT INTO conversations (tenant_id, agent, session_key, message_count) VALUES ($1, 'planner', $2, 4) RETURNING id`,
        [tenant, key],
      );
    const message = (tenant: string, conversationId: string, i: number, content: string) =>
      one(
        admin,
        `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
         VALUES ($1, $2, 'planner', $3, 0, $4, $5, $6, 10, $7) RETURNING id`,
        [
          tenant,
          conversationId,
          `t${i}`,
          100 + i,
          i % 2 ? 'assistant' : 'user',
          content,
          `2026-04-01T09:${10 + i}:00Z`,
        ],
      );
    ids.chat = await conversation('acme', 'kyoto');
    for (const [i, content] of CHAT.entries()) ids.messages.push(await message('acme', ids.chat, i, content));
    const m = (i: number) => ['message', ids.messages[i]!] as ['message', string];
    const leaf1 = await summary(admin, 'acme', ids.chat, 0, 'Leaf: a Kyoto trip in blossom season.', [
      m(0),
      m(1),
    ]);
    const leaf2 = await summary(admin, 'acme', ids.chat, 0, 'Leaf: a 2000 euro budget.', [m(2), m(3)]);
    const branch = await summary(admin, 'acme', ids.chat, 1, 'Branch: plans and money for Kyoto.', [
      ['summary', leaf1],
      ['summary', leaf2],
    ]);
    await summary(admin, 'acme', ids.chat, 2, 'Root: Ada plans a week in Kyoto.', [['summary', branch]]);

    ids.theirs = await conversation('globex', 'vault');
    const secret = await message('globex', ids.theirs, 0, 'Globex vault combination is 7734.');
    await summary(admin, 'globex', ids.theirs, 0, 'Leaf: the Globex vault combination.', [
      ['message', secret],
    ]);
  }

  const seriousViolations = (selector: string) => ui.seriousViolations(selector);
  const fitsWidth = () => ui.fitsWidth();
  const tree = () => page.getByRole('region', { name: 'Summary tree' });
  /** The summary saying `content`: of the nested items holding that text, the innermost (the last). */
  const node = (content: string) => tree().locator('li[data-summary-id]').filter({ hasText: content }).last();

  beforeAll(async () => {
    env = await startTestEnvironment({ label: 'summary_tree', seed, processes: ['retrieval', 'api'] });
    base = `http://127.0.0.1:${env.process('api').httpPort}`;
    [acme] = await createApiKeys(env.env.DATABASE_URL, 'summary tree spec', ['acme']);
    ui = await openDashboard(base);
    page = ui.page;
    await ui.signIn(acme);
  });

  afterAll(async () => {
    await ui?.close();
    await env?.stop();
  });

  it('shows the root over the branch over the leaves, each with its span and content', async () => {
    await page.goto(`${base}/conversations/${ids.chat}`);
    await node('Root: Ada plans a week in Kyoto.').waitFor();
    const levels = await tree()
      .locator('li[data-summary-id]')
      .evaluateAll((items) => items.map((li) => li.getAttribute('data-level')));
    expect(levels).toEqual(['root', 'branch', 'leaf', 'leaf']);
    for (const content of [
      'Branch: plans and money for Kyoto.',
      'Leaf: a Kyoto trip in blossom season.',
      'Leaf: a 2000 euro budget.',
    ])
      expect(await node(content).isVisible()).toBe(true);
    expect(await node('Leaf: a 2000 euro budget.').getByText('2 messages', { exact: false }).count()).toBe(1);
    expect(await seriousViolations('main section')).toEqual([]);
    expect(await fitsWidth()).toBe(true);
  });

  it('drills from a leaf to its source messages from the keyboard, then to the message in the transcript', async () => {
    const leaf = node('Leaf: a 2000 euro budget.');
    const open = leaf.getByRole('button', { name: 'Show source messages' });
    await open.focus();
    await page.keyboard.press('Enter');
    const sources = page.getByRole('list', { name: /^Source messages of summary \d+$/ });
    await sources.getByText(CHAT[2]!).waitFor();
    expect(await sources.getByText(CHAT[3]!).count()).toBe(1);
    expect(await sources.getByText(CHAT[0]!).count()).toBe(0);
    expect(
      await leaf.getByRole('button', { name: 'Hide source messages' }).getAttribute('aria-expanded'),
    ).toBe('true');
    expect(await seriousViolations('main section')).toEqual([]);
    expect(await fitsWidth()).toBe(true);
    await ui.screenshotForDocs('summary-tree');

    await sources.getByRole('link', { name: `Show message ${ids.messages[2]} in the transcript` }).click();
    const highlighted = page.locator('li[aria-current="true"]');
    await highlighted.waitFor();
    expect(await highlighted.innerText()).toContain(CHAT[2]);
  });

  it('closes a branch from the keyboard, hiding the summaries below it', async () => {
    const close = node('Branch: plans and money for Kyoto.').getByRole('button', {
      name: 'Hide 2 summaries below',
    });
    await close.focus();
    await page.keyboard.press('Enter');
    await node('Leaf: a Kyoto trip in blossom season.').waitFor({ state: 'detached' });
    expect(
      await node('Branch: plans and money for Kyoto.')
        .getByRole('button', { name: 'Show 2 summaries below' })
        .getAttribute('aria-expanded'),
    ).toBe('false');
  });

  it('shows nothing of another tenant’s conversation', async () => {
    await page.goto(`${base}/conversations/${ids.theirs}`);
    await tree()
      .getByRole('alert')
      .getByText(/NOT_FOUND/)
      .waitFor();
    expect(await tree().locator('li[data-summary-id]').count()).toBe(0);
    const text = await page.locator('main').innerText();
    expect(text).not.toContain('Globex');
    expect(text).not.toContain('7734');
  });
});
