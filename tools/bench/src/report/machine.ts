import { spawnSync } from 'node:child_process';
import { cpus, loadavg, totalmem, release, platform } from 'node:os';
import type { Client } from 'pg';
import { natsServerBinary } from '@engram/testing';

export interface MachineDescription {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly os: string;
  readonly node: string;
  readonly postgres: string;
  readonly pgvector: string;
  readonly postgresSettings: Record<string, string>;
  readonly natsServer: string;
  /** 1-minute load average when the benchmark started: anything else running skews the figures. */
  readonly loadAverageAtStart: number;
}

const PG_SETTINGS = [
  'shared_buffers',
  'synchronous_commit',
  'fsync',
  'wal_level',
  'max_wal_size',
  'checkpoint_timeout',
  'work_mem',
  'maintenance_work_mem',
];

export async function describeMachine(admin: Client): Promise<MachineDescription> {
  const version = await admin.query<{ v: string }>(`SELECT current_setting('server_version') AS v`);
  const vector = await admin.query<{ v: string }>(
    `SELECT default_version AS v FROM pg_available_extensions WHERE name = 'vector'`,
  );
  const settings = await admin.query<{ name: string; setting: string; unit: string | null }>(
    `SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1)`,
    [PG_SETTINGS],
  );
  const nats = spawnSync(natsServerBinary(), ['--version'], { encoding: 'utf8' });
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()}`,
    node: process.version,
    postgres: version.rows[0]?.v ?? 'unknown',
    pgvector: vector.rows[0]?.v ?? 'not installed',
    postgresSettings: Object.fromEntries(
      settings.rows.map((r) => [r.name, r.unit ? `${r.setting} (${r.unit})` : r.setting]),
    ),
    natsServer: (nats.stdout || nats.stderr || '').trim(),
    loadAverageAtStart: Math.round(loadavg()[0]! * 100) / 100,
  };
}
