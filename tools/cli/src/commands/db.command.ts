import { Command } from 'commander';
import { loadConfig } from '@engram/config';
import { migrateDatabase, setupDatabase } from '@engram/store';

const DB_VARIABLES = [
  'ENGRAM_PG_ADMIN_URL',
  'DATABASE_OWNER_URL',
  'DATABASE_URL',
  'EMBEDDING_DIMENSIONS',
] as const;

export function dbCommand(): Command {
  const db = new Command('db').description('the Postgres schema');
  db.command('setup')
    .description(
      'create the database, its owner and app roles and the extensions (needs ENGRAM_PG_ADMIN_URL, a superuser)',
    )
    .action(async () => {
      const config = loadConfig(DB_VARIABLES);
      await setupDatabase({
        adminUrl: config.ENGRAM_PG_ADMIN_URL,
        ownerUrl: config.DATABASE_OWNER_URL,
        appUrl: config.DATABASE_URL,
      });
      console.log(`database ready at ${redact(config.DATABASE_OWNER_URL)}`);
    });
  db.command('migrate')
    .description('apply pending migrations as the schema owner (DATABASE_OWNER_URL)')
    .action(async () => {
      const config = loadConfig(DB_VARIABLES);
      const applied = await migrateDatabase(config.DATABASE_OWNER_URL);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'schema up to date');
    });
  return db;
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
