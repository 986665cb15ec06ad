import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '@engram/config';
import { setupDatabase } from './database-setup';

/** Setting up databases at once (parallel test workers, several benches) against one real Postgres. */
describe('setupDatabase (real Postgres)', () => {
  const config = loadConfig(['ENGRAM_PG_ADMIN_URL', 'DATABASE_OWNER_URL', 'DATABASE_URL']);
  const name = `engram_setup_race_${randomBytes(3).toString('hex')}`;

  afterAll(async () => {
    const admin = new Client({ connectionString: config.ENGRAM_PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
    await admin.end();
  });

  it('succeeds every time when several run at once (roles are the cluster’s, shared by all)', async () => {
    const urls = {
      adminUrl: config.ENGRAM_PG_ADMIN_URL,
      ownerUrl: config.DATABASE_OWNER_URL,
      appUrl: config.DATABASE_URL,
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => setupDatabase(urls, name)));
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? 'ok' : (o.reason as Error).message))).toEqual(
      Array(6).fill('ok'),
    );
  });
});
