import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The api's own routes: a GET under them that no route answers is a 404, never the dashboard page. */
const API_PREFIXES = ['/v1', '/mem0', '/mcp', '/health', '/metrics', '/docs', '/openapi.json', '/assets'];

/** Where `npm run build` puts the dashboard (libs/dashboard/dist): its index.html and assets/. */
export function dashboardDist(): string {
  return join(dirname(require.resolve('@engram/dashboard/package.json')), 'dist');
}

/** The dashboard's page, or null when it was not built. */
export function readDashboardPage(dist: string): string | null {
  const page = join(dist, 'index.html');
  return existsSync(page) ? readFileSync(page, 'utf8') : null;
}

/**
 * Whether a GET of this path is the dashboard's to answer (with its page, which routes in the
 * browser): any path but the api's own routes and what looks like a file (a missing asset).
 */
export function isDashboardPath(url: string): boolean {
  const path = url.split('?')[0]!;
  if (API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return false;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !last.includes('.');
}
