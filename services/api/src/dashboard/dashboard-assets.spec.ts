import { isDashboardPath } from './dashboard-assets';

describe('which GETs the dashboard answers (SPA fallback)', () => {
  it('answers its own routes, at any depth, with or without a query', () => {
    for (const path of ['/', '/agents', '/agents/bot', '/conversations/12?around=40', '/search'])
      expect(isDashboardPath(path)).toBe(true);
  });

  it('leaves the api’s routes and missing files to the 404', () => {
    for (const path of [
      '/v1',
      '/v1/stats',
      '/mem0/v1/memories/3',
      '/mcp',
      '/health/ready',
      '/metrics',
      '/docs/assets/x.css',
      '/openapi.json',
      '/assets/index-abc.js',
      '/favicon.ico',
    ])
      expect(isDashboardPath(path)).toBe(false);
  });

  it('does not mistake a page that merely starts like an api route for it', () => {
    expect(isDashboardPath('/v1beta')).toBe(true);
    expect(isDashboardPath('/mcpx')).toBe(true);
  });
});
