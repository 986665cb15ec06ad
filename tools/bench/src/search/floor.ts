import type { PoolClient } from 'pg';
import { LOCAL_EMBEDDING_MODEL_ID } from '@engram/local-model';
import { ITEM_KINDS, runSearch, sqlSearchSource, type StatementRunner } from '@engram/search';

/**
 * THE FLOOR of `npm run bench:search`: one search as retrieval runs it (runSearch from
 * @engram/search: the same statements, the same ranking between them), on a connection of the
 * app role (row-level security on), without NATS, Nest or Gerty: the query's vector is given.
 */

export interface FloorFilters {
  readonly agent?: string;
  readonly from?: Date;
  readonly to?: Date;
}

export interface FloorQuery {
  readonly text: string;
  /** The query's vector, from the same model as Gerty's built-in one. */
  readonly vector: readonly number[];
  readonly filters: FloorFilters;
  readonly topK: number;
}

export async function runFloorQuery(client: PoolClient, tenantId: string, query: FloorQuery): Promise<void> {
  const run: StatementRunner = async <T>(statement: { text: string; values: unknown[] }) =>
    (await client.query(statement.text, statement.values)).rows as T[];
  await client.query('BEGIN');
  try {
    await client.query(`SELECT set_config('engram.tenant_id', $1, true)`, [tenantId]);
    const outcome = await runSearch(
      sqlSearchSource(run, 'fulltext'),
      {
        query: query.text,
        mode: 'fulltext',
        fusion: 'weighted',
        topK: query.topK,
        expand: true,
        scope: { tenantId, kinds: ITEM_KINDS, ...query.filters },
      },
      Promise.resolve({ vector: [...query.vector], model: LOCAL_EMBEDDING_MODEL_ID }),
      new Date(),
    );
    if (!outcome.known) throw new Error(`tenant ${tenantId} is unknown`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
