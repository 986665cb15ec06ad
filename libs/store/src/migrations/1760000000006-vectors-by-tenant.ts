import type { MigrationInterface, QueryRunner } from 'typeorm';
import { loadConfig } from '@engram/config';
import { tenantIsolation } from './1760000000000-transcript';

/** Fixed when the table is made: tenants hash into this many partitions, each with its own HNSW graph. */
export const VECTOR_PARTITIONS = 32;

/**
 * Vectors partitioned by tenant (hash of tenant_id), each partition with its own HNSW graph.
 * One graph shared by every tenant answers a one-tenant query by walking everyone's vectors
 * until it has found enough of this tenant's: 77–132 ms at 1 M vectors over 100 tenants, and
 * slower the more tenants there are. In its partition a tenant is a large share of the graph.
 * The key gains tenant_id (a partitioned table's keys must hold the partition key); under RLS
 * every lookup by (item_kind, item_id) carries the tenant anyway. Each partition carries the
 * tenant policy too: a partition named directly is a table of its own.
 */
/** The columns of embeddings (as migration 002 made them), with this primary key. */
function vectorColumns(key: string): string {
  const dims = loadConfig(['EMBEDDING_DIMENSIONS']).EMBEDDING_DIMENSIONS;
  return `(
    item_kind text NOT NULL CHECK (item_kind IN ('message', 'summary', 'fact')),
    item_id bigint NOT NULL,
    tenant_id text NOT NULL,
    model text NOT NULL,
    embedding halfvec(${dims}) NOT NULL,
    embedded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (${key})
  )`;
}

export class VectorsByTenant1760000000006 implements MigrationInterface {
  name = 'VectorsByTenant1760000000006';

  async up(q: QueryRunner): Promise<void> {
    const partitions = Array.from(
      { length: VECTOR_PARTITIONS },
      (_, i) => `embeddings_p${String(i).padStart(2, '0')}`,
    );
    await q.query(`
      CREATE TABLE embeddings_by_tenant ${vectorColumns('tenant_id, item_kind, item_id')} PARTITION BY HASH (tenant_id);
      ${partitions.map((p, i) => `CREATE TABLE ${p} PARTITION OF embeddings_by_tenant FOR VALUES WITH (MODULUS ${VECTOR_PARTITIONS}, REMAINDER ${i});`).join('\n')}
      INSERT INTO embeddings_by_tenant (item_kind, item_id, tenant_id, model, embedding, embedded_at)
        SELECT item_kind, item_id, tenant_id, model, embedding, embedded_at FROM embeddings;
      DROP TABLE embeddings;
      ALTER TABLE embeddings_by_tenant RENAME TO embeddings;
      ALTER TABLE embeddings RENAME CONSTRAINT embeddings_by_tenant_pkey TO embeddings_pkey;
      CREATE INDEX embeddings_tenant ON embeddings (tenant_id, item_kind, model);
      CREATE INDEX embeddings_vector ON embeddings USING hnsw (embedding halfvec_cosine_ops) WITH (m = 8, ef_construction = 24);
      ${tenantIsolation('embeddings')}
      ${partitions.map((p) => tenantIsolation(p)).join('\n')}
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE embeddings_flat ${vectorColumns('item_kind, item_id')};
      INSERT INTO embeddings_flat SELECT item_kind, item_id, tenant_id, model, embedding, embedded_at FROM embeddings;
      DROP TABLE embeddings;
      ALTER TABLE embeddings_flat RENAME TO embeddings;
      ALTER TABLE embeddings RENAME CONSTRAINT embeddings_flat_pkey TO embeddings_pkey;
      CREATE INDEX embeddings_vector ON embeddings USING hnsw (embedding halfvec_cosine_ops) WITH (m = 8, ef_construction = 24);
      CREATE INDEX embeddings_tenant ON embeddings (tenant_id, item_kind, model);
      ${tenantIsolation('embeddings')}
    `);
  }
}
