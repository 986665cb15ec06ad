import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Command } from 'commander';
import { Logger } from '@nestjs/common';
import { jetstreamManager } from '@nats-io/jetstream';
import { loadConfig } from '@engram/config';
import {
  exportStreams,
  readConsumerPositions,
  restoreStreams,
  STREAM_BACKUP_SCOPE,
  type BackedUpMessage,
  type ConsumerPosition,
} from '@engram/messaging';
import {
  databaseOf,
  DatabaseNotEmptyError,
  dumpDatabase,
  lastMigration,
  restoreDatabase,
} from '@engram/store';
import { UsageError } from './cli-failure';
import { withNats } from './engram-rpc';
import { backfillToolSynthesis } from './memory.command';
import { table } from './memory-tables';

/** `engram backup` and `engram restore`: the store (pg_dump) and what the streams hold that the store does not yet. */

const FORMAT = 'engram-backup/1';
const DATABASE_FILE = 'database.dump';
const STREAMS_FILE = 'streams.jsonl';
const MANIFEST_FILE = 'manifest.json';
const VARIABLES = [
  'ENGRAM_PG_ADMIN_URL',
  'DATABASE_OWNER_URL',
  'DATABASE_URL',
  'NATS_URL',
  'NATS_STREAM_REPLICAS',
] as const;

/** What a backup directory holds (manifest.json). */
export interface BackupManifest {
  readonly format: typeof FORMAT;
  readonly createdAt: string;
  readonly database: {
    readonly name: string;
    readonly file: string;
    readonly bytes: number;
    /** The schema's version: a restore with a newer build applies the migrations after it. */
    readonly lastMigration: string | null;
    readonly seconds: number;
  };
  readonly streams: {
    readonly file: string;
    readonly bytes: number;
    readonly scope: Readonly<Record<string, string>>;
    /** Each durable consumer's position, read before the dump: what was kept is what came after. */
    readonly positions: readonly ConsumerPosition[];
    /** Messages kept per stream. */
    readonly kept: Readonly<Record<string, number>>;
    readonly seconds: number;
  };
}

/** What a restore did. */
export interface RestoreResult {
  readonly database: string;
  readonly migrationsApplied: readonly string[];
  /** Tool calls without content enqueued again for their descriptions (WORK is derived, not kept). */
  readonly toolCallsEnqueued: number;
  /** Messages published again per stream. */
  readonly published: Readonly<Record<string, number>>;
  readonly seconds: number;
}

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

/**
 * Backs up into `dir` (new or empty): each durable consumer's position, then the database
 * (pg_dump), then the stream messages after those positions (`exportStreams`), then the manifest.
 */
export async function backUp(dir: string): Promise<BackupManifest> {
  const config = loadConfig(VARIABLES);
  await mkdir(dir, { recursive: true });
  if ((await readdir(dir)).length > 0)
    throw new UsageError(`${dir} is not empty: back up into a new directory`);
  const database = databaseOf(config.DATABASE_OWNER_URL);
  return withNats(async (nc) => {
    const positions = await readConsumerPositions(await jetstreamManager(nc));
    const dumpStarted = performance.now();
    await dumpDatabase(config.ENGRAM_PG_ADMIN_URL, database, join(dir, DATABASE_FILE));
    const dumpSeconds = seconds(dumpStarted);
    const streamsStarted = performance.now();
    const out = createWriteStream(join(dir, STREAMS_FILE));
    const kept = await exportStreams(nc, positions, async (message) => {
      if (!out.write(`${JSON.stringify(message)}\n`)) await once(out, 'drain');
    });
    out.end();
    await once(out, 'finish');
    const manifest: BackupManifest = {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      database: {
        name: database,
        file: DATABASE_FILE,
        bytes: (await stat(join(dir, DATABASE_FILE))).size,
        lastMigration: await lastMigration(config.ENGRAM_PG_ADMIN_URL, database),
        seconds: dumpSeconds,
      },
      streams: {
        file: STREAMS_FILE,
        bytes: (await stat(join(dir, STREAMS_FILE))).size,
        scope: STREAM_BACKUP_SCOPE,
        positions,
        kept,
        seconds: seconds(streamsStarted),
      },
    };
    await writeFile(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  }, config.NATS_URL);
}

async function readManifest(dir: string): Promise<BackupManifest> {
  const text = await readFile(join(dir, MANIFEST_FILE), 'utf8').catch(() => {
    throw new UsageError(`${dir} holds no ${MANIFEST_FILE}: not a backup made by engram backup`);
  });
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== FORMAT)
    throw new UsageError(
      `${dir} is a backup of format ${String(manifest.format)}; this build reads ${FORMAT}`,
    );
  return manifest;
}

async function* backedUpMessages(file: string): AsyncIterable<BackedUpMessage> {
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity }))
    if (line.trim() !== '') yield JSON.parse(line) as BackedUpMessage;
}

/**
 * Restores a backup with the services stopped: the database into the one DATABASE_OWNER_URL names
 * (it must not hold an Engram schema), the tool calls still without content enqueued again, and the
 * kept stream messages published again (the streams created if missing). Once the services start,
 * their consumers take those messages and the outbox relays publish what the dump's outbox held.
 */
export async function restore(dir: string): Promise<RestoreResult> {
  const config = loadConfig(VARIABLES);
  const manifest = await readManifest(dir);
  const started = performance.now();
  const migrationsApplied = await restoreDatabase(
    {
      adminUrl: config.ENGRAM_PG_ADMIN_URL,
      ownerUrl: config.DATABASE_OWNER_URL,
      appUrl: config.DATABASE_URL,
    },
    join(dir, manifest.database.file),
  ).catch((error: unknown) =>
    Promise.reject(error instanceof DatabaseNotEmptyError ? new UsageError(error.message) : error),
  );
  const enqueued = await backfillToolSynthesis({ databaseUrl: config.DATABASE_URL, dryRun: false });
  // The provisioner logs through Nest's logger; this command's output is its own.
  Logger.overrideLogger(false);
  const published = await withNats(
    (nc) =>
      restoreStreams(nc, backedUpMessages(join(dir, manifest.streams.file)), config.NATS_STREAM_REPLICAS),
    config.NATS_URL,
  );
  return {
    database: databaseOf(config.DATABASE_OWNER_URL),
    migrationsApplied,
    toolCallsEnqueued: Object.values(enqueued).reduce((a, b) => a + b, 0),
    published,
    seconds: seconds(started),
  };
}

const megabytes = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const counts = (record: Readonly<Record<string, number>>) =>
  Object.entries(record)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';

function summary(rows: Array<[string, string]>): string {
  const out = table();
  for (const [name, value] of rows) out.push({ [name]: value });
  return out.toString();
}

export function backupCommand(): Command {
  return new Command('backup')
    .description(
      'back up the database (pg_dump) and what the streams hold that it does not yet (unconsumed turns and events, dead letters) into a new directory; needs ENGRAM_PG_ADMIN_URL and pg_dump',
    )
    .argument('<dir>', 'a new or empty directory')
    .option('--json', 'print the manifest as JSON')
    .action(async (dir: string, options: { json?: boolean }) => {
      const m = await backUp(dir);
      if (options.json) return console.log(JSON.stringify(m));
      console.log(
        summary([
          ['written to', dir],
          [
            'database',
            `${m.database.name}: ${megabytes(m.database.bytes)} in ${m.database.seconds} s (schema ${m.database.lastMigration})`,
          ],
          ['streams', `${counts(m.streams.kept)}: ${megabytes(m.streams.bytes)} in ${m.streams.seconds} s`],
        ]),
      );
    });
}

export function restoreCommand(): Command {
  return new Command('restore')
    .description(
      'restore a backup with the services stopped: the database into the empty one DATABASE_OWNER_URL names, then the kept stream messages; needs ENGRAM_PG_ADMIN_URL and pg_restore',
    )
    .argument('<dir>', 'a directory written by engram backup')
    .option('--json', 'print what was restored as JSON')
    .action(async (dir: string, options: { json?: boolean }) => {
      const r = await restore(dir);
      if (options.json) return console.log(JSON.stringify(r));
      console.log(
        summary([
          [
            'database',
            `${r.database}${r.migrationsApplied.length ? `, then ${r.migrationsApplied.join(', ')}` : ''}`,
          ],
          ['tool calls enqueued', String(r.toolCallsEnqueued)],
          ['published again', counts(r.published)],
          ['took', `${r.seconds} s`],
        ]),
      );
    });
}
