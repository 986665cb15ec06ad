import type { Client } from 'pg';

/** An index as the migrations made it, recorded before a bulk load drops it. */
export interface RecordedIndex {
  readonly table: string;
  readonly name: string;
  readonly method: string;
  /** pg_get_indexdef: the statement that recreates it exactly. */
  readonly definition: string;
}

/** Index methods whose per-row insertion is slow enough to build afterwards instead (HNSW ~1.5k rows/s). */
export const BULK_BUILT_METHODS = ['hnsw', 'ivfflat', 'gin', 'gist'] as const;

/**
 * The indexes of `tables` (schema public) built with one of `methods` that back no constraint,
 * as pg_get_indexdef describes them; the indexes of a partitioned table once, on the table.
 */
export async function recordIndexes(
  client: Client,
  tables: readonly string[],
  methods: readonly string[] = BULK_BUILT_METHODS,
): Promise<RecordedIndex[]> {
  const { rows } = await client.query<RecordedIndex>(
    `SELECT t.relname AS "table", c.relname AS name, am.amname AS method, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       JOIN pg_am am ON am.oid = c.relam
      WHERE n.nspname = 'public' AND t.relname = ANY($1) AND am.amname = ANY($2)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
      ORDER BY t.relname, c.relname`,
    [tables, methods],
  );
  return rows;
}

export async function dropIndexes(client: Client, indexes: readonly RecordedIndex[]): Promise<void> {
  for (const index of indexes) await client.query(`DROP INDEX public."${index.name.replace(/"/g, '""')}"`);
}

/**
 * Builds the recorded indexes again from their own definitions (GIN before HNSW; each timed),
 * with room to build in memory and one parallel worker (two cores).
 */
export async function recreateIndexes(
  client: Client,
  indexes: readonly RecordedIndex[],
  progress: (text: string) => void,
): Promise<Array<{ name: string; method: string; seconds: number }>> {
  await client.query(`SET maintenance_work_mem = '4GB'`);
  await client.query('SET max_parallel_maintenance_workers = 1');
  const order = (method: string) => (method === 'hnsw' || method === 'ivfflat' ? 1 : 0);
  const timings: Array<{ name: string; method: string; seconds: number }> = [];
  for (const index of [...indexes].sort((a, b) => order(a.method) - order(b.method))) {
    progress(`building ${index.name} (${index.method} on ${index.table}) …`);
    const started = performance.now();
    // A partitioned table's index is recorded as ON ONLY; built again on the whole table, it reaches every partition.
    await client.query(index.definition.replace(' ON ONLY ', ' ON '));
    const seconds = (performance.now() - started) / 1000;
    progress(`built ${index.name} in ${seconds.toFixed(1)} s`);
    timings.push({ name: index.name, method: index.method, seconds });
  }
  return timings;
}

/** The recorded indexes that are now missing or defined differently: [] when the schema is as before. */
export async function indexDifferences(
  client: Client,
  recorded: readonly RecordedIndex[],
): Promise<string[]> {
  const now = await recordIndexes(
    client,
    [...new Set(recorded.map((i) => i.table))],
    [...new Set(recorded.map((i) => i.method))],
  );
  const byName = new Map(now.map((i) => [i.name, i.definition]));
  return recorded
    .filter((i) => byName.get(i.name) !== i.definition)
    .map((i) => `${i.name}: ${byName.get(i.name) ?? 'missing'} (migrated: ${i.definition})`);
}
