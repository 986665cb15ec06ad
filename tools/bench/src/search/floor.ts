import type { PoolClient } from 'pg';
import { LOCAL_EMBEDDING_MODEL_ID } from '@engram/local-model';

/**
 * THE FLOOR of `npm run bench:search`: the bare SQL of one search, as retrieval's plan runs it,
 * without NATS, Nest or Gerty. The benchmark runs it with the same queries and concurrency as
 * the RPC, on a connection of the app role (row-level security on).
 *
 * PROVISIONAL: a full-text candidate query, a vector top-50 and a fetch of the top rows' content.
 * Replace the body with the real plan's statements (from @engram/search) once they exist; keep
 * the signature: the benchmark calls nothing else.
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

const FULLTEXT_CANDIDATES = 300;
const VECTOR_CANDIDATES = 50;
const RRF_K = 60;

export async function runFloorQuery(client: PoolClient, tenantId: string, query: FloorQuery): Promise<void> {
  // The query's words ORed (websearch syntax: "a or b or c"); the word "or" itself would be an operator.
  const words = (query.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w !== 'or');
  const vector = `[${query.vector.join(',')}]`;
  const { agent, from, to } = query.filters;
  const filtered = agent !== undefined || from !== undefined || to !== undefined;

  await client.query('BEGIN');
  try {
    await client.query(
      `SELECT set_config('engram.tenant_id', $1, true), set_config('hnsw.ef_search', '100', true), set_config('hnsw.iterative_scan', 'relaxed_order', true)`,
      [tenantId],
    );
    const fulltext = await client.query<{ id: string }>(
      `SELECT m.id
         FROM messages m, websearch_to_tsquery('english', $2) q
        WHERE m.tenant_id = $1 AND m.tsv @@ q
          AND ($3::text IS NULL OR m.agent = $3)
          AND ($4::timestamptz IS NULL OR m.created_at >= $4)
          AND ($5::timestamptz IS NULL OR m.created_at < $5)
        ORDER BY ts_rank(m.tsv, q) DESC
        LIMIT ${FULLTEXT_CANDIDATES}`,
      [tenantId, words.join(' or '), agent ?? null, from ?? null, to ?? null],
    );
    // Unfiltered: every kind of item of the tenant; filtered: messages that pass the filters.
    const semantic = filtered
      ? await client.query<{ kind: string; id: string }>(
          `SELECT e.item_kind AS kind, e.item_id AS id
             FROM embeddings e JOIN messages m ON m.id = e.item_id
            WHERE e.tenant_id = $1 AND e.item_kind = 'message' AND e.model = $3
              AND ($4::text IS NULL OR m.agent = $4)
              AND ($5::timestamptz IS NULL OR m.created_at >= $5)
              AND ($6::timestamptz IS NULL OR m.created_at < $6)
            ORDER BY e.embedding <=> $2::halfvec
            LIMIT ${VECTOR_CANDIDATES}`,
          [tenantId, vector, LOCAL_EMBEDDING_MODEL_ID, agent ?? null, from ?? null, to ?? null],
        )
      : await client.query<{ kind: string; id: string }>(
          `SELECT e.item_kind AS kind, e.item_id AS id
             FROM embeddings e
            WHERE e.tenant_id = $1 AND e.model = $3
            ORDER BY e.embedding <=> $2::halfvec
            LIMIT ${VECTOR_CANDIDATES}`,
          [tenantId, vector, LOCAL_EMBEDDING_MODEL_ID],
        );

    // Reciprocal Rank Fusion of the two lists, then the top rows' content.
    const fused = new Map<string, number>();
    const add = (key: string, rank: number) => fused.set(key, (fused.get(key) ?? 0) + 1 / (RRF_K + rank + 1));
    fulltext.rows.forEach((r, rank) => add(`message:${r.id}`, rank));
    semantic.rows.forEach((r, rank) => add(`${r.kind}:${r.id}`, rank));
    const top = [...fused.entries()].sort((a, b) => b[1] - a[1]).slice(0, query.topK).map(([key]) => key.split(':') as [string, string]);
    const ids = (kind: string) => top.filter(([k]) => k === kind).map(([, id]) => id);
    await client.query(
      `SELECT 'message' AS kind, id, content FROM messages WHERE id = ANY($1::bigint[])
       UNION ALL SELECT 'summary', id, content FROM summaries WHERE id = ANY($2::bigint[])
       UNION ALL SELECT 'fact', id, content FROM facts WHERE id = ANY($3::bigint[])`,
      [ids('message'), ids('summary'), ids('fact')],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
