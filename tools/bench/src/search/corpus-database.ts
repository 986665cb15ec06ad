import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '@engram/config';
import { MIGRATIONS } from '@engram/store';
import { createMigratedDatabase, fixedDatabaseName, type ScratchDatabase } from '@engram/testing';
import { CORPUS_VERSION, type CorpusSpec } from './corpus-shape';
import type { LoadReport } from './corpus-load';

/**
 * The search benchmark's corpora are expensive to build (a million messages, their vectors, a
 * GIN and an HNSW index), so each is kept as its own database across runs, named after the
 * corpus (version, size, seed) and the schema (migration names, vector width): a new migration
 * or generator gives a new name, and the database of the old one is dropped. The marker that a
 * load completed is the database's comment, written last.
 */

/** What the comment of a completely loaded corpus database holds. */
export interface CorpusMarker {
  readonly benchmark: 'search';
  readonly corpusVersion: number;
  readonly spec: CorpusSpec;
  readonly migrations: readonly string[];
  readonly loadedAt: string;
  readonly load: LoadReport;
}

export interface CorpusDatabase extends ScratchDatabase {
  /** true: an earlier run loaded it (load is that run's report). */
  readonly reused: boolean;
  readonly marker: CorpusMarker;
}

export function migrationNames(): string[] {
  return MIGRATIONS.map((Migration) => new Migration().name ?? Migration.name);
}

/** `search_<label>_v<corpus version>_<hash of spec, migrations and vector width>`: a createMigratedDatabase label. */
export function corpusDatabaseLabel(label: string, spec: CorpusSpec): string {
  const dimensions = loadConfig(['EMBEDDING_DIMENSIONS']).EMBEDDING_DIMENSIONS;
  const hash = createHash('sha256')
    .update(JSON.stringify({ spec, migrations: migrationNames(), dimensions }))
    .digest('hex')
    .slice(0, 10);
  return `search_${label}_v${CORPUS_VERSION}_${hash}`;
}

async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({
    connectionString: loadConfig(['ENGRAM_PG_ADMIN_URL']).ENGRAM_PG_ADMIN_URL,
    application_name: 'engram-bench-search',
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function readMarker(client: Client, name: string): Promise<CorpusMarker | null> {
  const { rows } = await client.query<{ comment: string | null }>(
    `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
    [name],
  );
  if (!rows[0]) return null;
  try {
    const marker = JSON.parse(rows[0].comment ?? '') as CorpusMarker;
    return marker.benchmark === 'search' && marker.corpusVersion === CORPUS_VERSION ? marker : null;
  } catch {
    return null;
  }
}

/**
 * The loaded corpus database for `spec`: reused when a complete one exists (unless `fresh`),
 * otherwise (re)created from the migrations and loaded by `load`. Databases of the same label
 * for another corpus version or schema are dropped (unless in use).
 */
export async function ensureCorpusDatabase(
  label: string,
  spec: CorpusSpec,
  options: {
    fresh: boolean;
    progress: (text: string) => void;
    load: (db: ScratchDatabase) => Promise<LoadReport>;
  },
): Promise<CorpusDatabase> {
  const dbLabel = corpusDatabaseLabel(label, spec);
  const name = fixedDatabaseName(dbLabel);
  const existing = await withAdmin(async (client) => {
    const stale = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND datname <> $2`,
      [fixedDatabaseName(`search_${label}_`), name],
    );
    for (const { datname } of stale.rows) {
      await client.query(`DROP DATABASE "${datname}"`).then(
        () => options.progress(`dropped ${datname} (another corpus version or schema)`),
        (error: Error) => options.progress(`kept ${datname}: ${error.message}`),
      );
    }
    const marker = await readMarker(client, name);
    const exists = (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
    if (exists && (options.fresh || !marker)) {
      options.progress(`dropping ${name} (${options.fresh ? '--fresh' : 'incomplete'})`);
      await client.query(`DROP DATABASE "${name}" WITH (FORCE)`);
      return null;
    }
    return marker;
  });
  const db = await createMigratedDatabase(dbLabel, { fixedName: true });
  if (existing) {
    options.progress(
      `reusing ${name} (loaded ${existing.loadedAt} in ${existing.load.seconds.total.toFixed(0)} s)`,
    );
    return { ...db, reused: true, marker: existing };
  }
  options.progress(`loading ${name} …`);
  const load = await options.load(db);
  const marker: CorpusMarker = {
    benchmark: 'search',
    corpusVersion: CORPUS_VERSION,
    spec,
    migrations: migrationNames(),
    loadedAt: new Date().toISOString(),
    load,
  };
  await withAdmin((client) =>
    client.query(`COMMENT ON DATABASE "${name}" IS ${client.escapeLiteral(JSON.stringify(marker))}`),
  );
  return { ...db, reused: false, marker };
}
