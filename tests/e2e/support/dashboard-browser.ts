import AxeBuilder from '@axe-core/playwright';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { request } from 'undici';
import { ApiKeyStore, createDataSource } from '@engram/store';

/** Debian's chromium package (scripts/provision.sh installs it): nothing is downloaded at test time. */
export const CHROMIUM = '/usr/bin/chromium';

/** The narrowest screen the dashboard is made for: every page must fit it without scrolling sideways. */
const PHONE = { width: 360, height: 780 };

/** The dashboard in one headless Chromium page, and the few things every browser spec asks of it. */
export interface DashboardBrowser {
  readonly page: Page;
  /** The api's own address (http://127.0.0.1:port). */
  readonly base: string;
  /** Serious and critical axe violations of the page, or of what `selector` matches (none expected). */
  seriousViolations(selector?: string): Promise<string[]>;
  /** Whether the page fits its viewport's width (nothing scrolls sideways). */
  fitsWidth(): Promise<boolean>;
  /** Signs in with the field labelled "API key" and waits for the Agents page. */
  signIn(key: string): Promise<void>;
  /** A tenant-scoped HTTP call as a runtime makes it; a status of 300 or more throws with the body. */
  post<T>(path: string, key: string, body: unknown): Promise<T>;
  /**
   * Saves the page as docs/images/<name>.png when ENGRAM_SCREENSHOTS names that folder
   * (`npm run docs:screenshots`); otherwise does nothing, so the specs stay fast.
   */
  screenshotForDocs(name: string, viewport?: { width: number; height: number }): Promise<void>;
  close(): Promise<void>;
}

/** A new API key per tenant named, in order, made as `engram apikey create` makes them (the app role). */
export async function createApiKeys(
  databaseUrl: string,
  name: string,
  tenants: readonly string[],
): Promise<string[]> {
  const dataSource = createDataSource(databaseUrl, { poolSize: 1, applicationName: name });
  await dataSource.initialize();
  try {
    const keys = new ApiKeyStore(dataSource);
    const made: string[] = [];
    for (const tenant of tenants) made.push((await keys.create(tenant, name)).key);
    return made;
  } finally {
    await dataSource.destroy();
  }
}

/** Opens Debian's headless Chromium at 360 px against the api at `base`. */
export async function openDashboard(base: string): Promise<DashboardBrowser> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  return {
    page,
    base,
    async seriousViolations(selector) {
      const axe = new AxeBuilder({ page });
      const { violations } = await (selector ? axe.include(selector) : axe).analyze();
      return violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    },
    fitsWidth: () => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth'),
    async signIn(key) {
      await page.goto(`${base}/`);
      await page.getByLabel('API key').fill(key);
      await page.getByLabel('API key').press('Enter');
      await page.getByRole('heading', { name: 'Agents' }).waitFor();
    },
    async post<T>(path: string, key: string, body: unknown): Promise<T> {
      const res = await request(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.body.json()) as T;
      if (res.statusCode >= 300) throw new Error(`${path}: ${res.statusCode} ${JSON.stringify(json)}`);
      return json;
    },
    async screenshotForDocs(name, viewport = { width: 1280, height: 900 }) {
      const folder = process.env['ENGRAM_SCREENSHOTS'];
      if (!folder) return;
      await mkdir(folder, { recursive: true });
      await page.setViewportSize(viewport);
      // From the top: a full-page shot of a scrolled page draws the sticky header mid-page.
      await page.evaluate('window.scrollTo(0, 0)');
      try {
        await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true, animations: 'disabled' });
      } finally {
        await page.setViewportSize(PHONE);
      }
    },
    close: () => browser.close(),
  };
}
