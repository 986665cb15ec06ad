import type { MigrationInterface, QueryRunner } from 'typeorm';
import { loadConfig } from '@engram/config';
import { tenantIsolation } from './1760000000000-transcript';

/**
 * Vectors move out of the rows they describe into one narrow table. Writing a vector
 * into `messages` is a non-HOT update that re-inserts the row into every index of the
 * transcript (the tenant+tsvector GIN, five btrees, HNSW): measured at 441 rows/s on
 * the 2-core reference machine, against ~1,570 inserts/s into a table holding only the
 * key and the HNSW-indexed vector. The transcript stays write-once; vectors, which a
 * model change replaces, live beside it.
 */
export class VectorsApart1760000000002 implements MigrationInterface {
  name = 'VectorsApart1760000000002';

  async up(q: QueryRunner): Promise<void> {
    const dims = loadConfig(['EMBEDDING_DIMENSIONS']).EMBEDDING_DIMENSIONS;
    await q.query(`
      CREATE TABLE embeddings (
        item_kind text NOT NULL CHECK (item_kind IN ('message', 'summary', 'fact')),
        item_id bigint NOT NULL,
        tenant_id text NOT NULL,
        -- The model that made the vector: another model's vector is re-made, not migrated.
        model text NOT NULL,
        embedding halfvec(${dims}) NOT NULL,
        embedded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (item_kind, item_id)
      );
      CREATE INDEX embeddings_vector ON embeddings USING hnsw (embedding halfvec_cosine_ops);
      CREATE INDEX embeddings_tenant ON embeddings (tenant_id, item_kind, model);
      ${tenantIsolation('embeddings')}

      INSERT INTO embeddings (item_kind, item_id, tenant_id, model, embedding, embedded_at)
        SELECT 'message', id, tenant_id, embedding_model, embedding, coalesce(embedded_at, now()) FROM messages WHERE embedding IS NOT NULL AND embedding_model IS NOT NULL
        UNION ALL
        SELECT 'summary', id, tenant_id, embedding_model, embedding, coalesce(embedded_at, now()) FROM summaries WHERE embedding IS NOT NULL AND embedding_model IS NOT NULL
        UNION ALL
        SELECT 'fact', id, tenant_id, embedding_model, embedding, coalesce(embedded_at, now()) FROM facts WHERE embedding IS NOT NULL AND embedding_model IS NOT NULL;

      DROP INDEX messages_embedding, summaries_embedding, facts_embedding;
      DROP INDEX messages_embedding_state, summaries_embedding_state, facts_embedding_state;
      ALTER TABLE messages DROP COLUMN embedding, DROP COLUMN embedding_model, DROP COLUMN embedded_at;
      ALTER TABLE summaries DROP COLUMN embedding, DROP COLUMN embedding_model, DROP COLUMN embedded_at;
      ALTER TABLE facts DROP COLUMN embedding, DROP COLUMN embedding_model, DROP COLUMN embedded_at;
    `);
  }

  async down(): Promise<void> {
    throw new Error('VectorsApart cannot be undone: re-embed instead');
  }
}
