import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { migrateDatabase, setupDatabase } from '@engram/store';
import { freePort } from './free-port';

const run = promisify(execFile);

export interface PostgresServerHandle {
  readonly port: number;
  /** A superuser (postgres, trust auth) on `database`. */
  adminUrl(database?: string): string;
  /** Stops Postgres as a crash would (`pg_ctl -m immediate`: no checkpoint, recovery from the WAL) and starts it again. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** The directory of initdb, pg_ctl and postgres: PG_BIN_DIR, `pg_config --bindir`, or the newest under /usr/lib/postgresql. */
export function postgresBinDir(): string {
  const candidates = [
    process.env['PG_BIN_DIR'],
    spawnSync('pg_config', ['--bindir']).stdout?.toString().trim(),
  ];
  if (existsSync('/usr/lib/postgresql'))
    for (const version of readdirSync('/usr/lib/postgresql').sort().reverse())
      candidates.push(`/usr/lib/postgresql/${version}/bin`);
  const found = candidates.find((dir) => dir && existsSync(join(dir, 'initdb')));
  if (!found) throw new Error('initdb is not installed: run `npm run provision` (or set PG_BIN_DIR)');
  return found;
}

/**
 * A private Postgres cluster (initdb into a temporary directory, trust auth, its own port) for a
 * test that restarts or stops the database: the shared server other suites use is never touched.
 * Postgres refuses to run as root, so as root it runs as the `postgres` user.
 */
export async function startPostgresServer(): Promise<PostgresServerHandle> {
  const bin = postgresBinDir();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString());
    const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString());
    chownSync(dataDir, uid, gid);
  }
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args);
  await pg('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off`;
  const start = () => pg('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(dataDir, 'log'), '-w', 'start']);
  const stopWith = (mode: 'fast' | 'immediate') => pg('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
  await start();
  return {
    port,
    adminUrl: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async restart() {
      await stopWith('immediate');
      await start();
    },
    async stop() {
      await stopWith('fast').catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Engram's roles, extensions and every migration in database `engram` of a private server; the URL the services use (the app role). */
export async function migrateEngramDatabase(pg: PostgresServerHandle): Promise<string> {
  const on = (role: string) => `postgres://${role}@127.0.0.1:${pg.port}/engram`;
  await setupDatabase({ adminUrl: pg.adminUrl(), ownerUrl: on('engram_owner'), appUrl: on('engram_app') });
  await migrateDatabase(on('engram_owner'));
  return on('engram_app');
}

/** A superuser connection to database `engram` of a private server, of its own (one kept open would die with a restart). */
export async function connectEngramAdmin(pg: PostgresServerHandle): Promise<Client> {
  const admin = new Client({ connectionString: pg.adminUrl('engram') });
  admin.on('error', () => undefined);
  await admin.connect();
  return admin;
}
