import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { IdObservation } from '@engram/memory-core';
import type { DataSource, EntityManager } from '@engram/store';

/** What gets a vector. */
export type ItemKind = 'message' | 'summary' | 'fact';

export interface TextToEmbed {
  readonly id: string;
  readonly text: string;
}

/** Every kind, in the order the sweep takes them. */
export const KINDS: readonly ItemKind[] = ['message', 'summary', 'fact'];

const ITEMS: Record<ItemKind, { table: string; ageColumn: string }> = {
  message: { table: 'messages', ageColumn: 'ingested_at' },
  summary: { table: 'summaries', ageColumn: 'created_at' },
  fact: { table: 'facts', ageColumn: 'updated_at' },
};

const digest = (text: string) => createHash('md5').update(text).digest('hex');

/**
 * Vectors in the store (the `embeddings` table, one row per item), under the
 * caller's tenant transaction.
 */
@Injectable()
export class VectorRepository {
  /** Of these items, the ones with text and without a vector of this model. */
  async needingVectors(
    manager: EntityManager,
    kind: ItemKind,
    ids: readonly string[],
    modelId: string,
  ): Promise<TextToEmbed[]> {
    if (ids.length === 0) return [];
    const rows: Array<{ id: string; content: string }> = await manager.query(
      `SELECT t.id, t.content FROM ${ITEMS[kind].table} t
         LEFT JOIN embeddings e ON e.item_kind = $3 AND e.item_id = t.id
        WHERE t.id = ANY($1::bigint[]) AND t.content <> '' AND e.model IS DISTINCT FROM $2
        ORDER BY t.id`,
      [ids, modelId, kind],
    );
    return rows.map((r) => ({ id: String(r.id), text: r.content }));
  }

  /**
   * The store's last ids, and the transactions of this database writing now (those of this role:
   * the services'; another role's writers are not seen), for SettledIds. No tenant's data.
   */
  async observeIds(dataSource: DataSource): Promise<IdObservation> {
    const [row]: Array<Record<ItemKind, string> & { writing: string[] }> = await dataSource.query(
      `SELECT ${KINDS.map(
        (kind) =>
          `coalesce(pg_sequence_last_value(pg_get_serial_sequence('${ITEMS[kind].table}', 'id')::regclass), 0)::text AS ${kind}`,
      ).join(', ')},
              ARRAY(SELECT a.pid || ':' || a.backend_xid FROM pg_stat_activity a
                     WHERE a.datname = current_database() AND a.backend_xid IS NOT NULL
                       AND a.pid <> pg_backend_pid()) AS writing`,
    );
    return {
      lastIds: Object.fromEntries(KINDS.map((kind) => [kind, BigInt(row![kind])])),
      writing: row!.writing,
    };
  }

  /** How far the sweep has looked at the tenant's items of each kind (0 where it never did). */
  async sweepMarks(manager: EntityManager, tenantId: string): Promise<Map<ItemKind, bigint>> {
    const rows: Array<{ item_kind: ItemKind; swept_id: string }> = await manager.query(
      `SELECT item_kind, swept_id::text FROM vector_sweep_marks WHERE tenant_id = $1`,
      [tenantId],
    );
    return new Map(rows.map((r) => [r.item_kind, BigInt(r.swept_id)]));
  }

  /** The sweep has looked at the tenant's items of this kind up to `sweptId` (a mark only moves on). */
  async saveSweepMark(
    manager: EntityManager,
    tenantId: string,
    kind: ItemKind,
    sweptId: bigint,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO vector_sweep_marks AS s (tenant_id, item_kind, swept_id) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, item_kind) DO UPDATE SET swept_id = excluded.swept_id, swept_at = now()
         WHERE s.swept_id < excluded.swept_id`,
      [tenantId, kind, sweptId.toString()],
    );
  }

  /**
   * The tenant's items above `afterId` (to `throughId`) with text and no vector of any model, in
   * id order; `young` ones are younger than `olderThan`. Reads only ids above the mark: the
   * primary key's range, not the tenant's every row. (A first pass, from 0, reads the tenant's
   * rows through its own index instead: `t.id + 0` keeps the planner off the whole key range.)
   */
  async unswept(
    manager: EntityManager,
    tenantId: string,
    kind: ItemKind,
    range: { afterId: bigint; throughId: bigint },
    olderThan: Date,
    limit: number,
  ): Promise<Array<TextToEmbed & { young: boolean }>> {
    const { table, ageColumn } = ITEMS[kind];
    const rows: Array<{ id: string; content: string; young: boolean }> = await manager.query(
      `SELECT t.id, t.content, t.${ageColumn} >= $5 AS young FROM ${table} t
        WHERE t.tenant_id = $1 AND t.id > $2 AND t.id <= $3 AND t.content <> ''
          AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.tenant_id = $1 AND e.item_kind = $4 AND e.item_id = t.id)
        ORDER BY ${range.afterId === 0n ? 't.id + 0' : 't.id'} LIMIT $6`,
      [tenantId, range.afterId.toString(), range.throughId.toString(), kind, olderThan.toISOString(), limit],
    );
    return rows.map((r) => ({ id: String(r.id), text: r.content, young: r.young }));
  }

  /** The tenant's items of this kind whose vector another model made (a model change): `embeddings_tenant`'s ranges either side of this model. */
  async embeddedByOtherModels(
    manager: EntityManager,
    tenantId: string,
    kind: ItemKind,
    modelId: string,
    limit: number,
  ): Promise<string[]> {
    const rows: Array<{ item_id: string }> = await manager.query(
      `(SELECT item_id FROM embeddings WHERE tenant_id = $1 AND item_kind = $2 AND model < $3 LIMIT $4)
       UNION ALL
       (SELECT item_id FROM embeddings WHERE tenant_id = $1 AND item_kind = $2 AND model > $3 LIMIT $4)
       ORDER BY item_id LIMIT $4`,
      [tenantId, kind, modelId, limit],
    );
    return rows.map((r) => String(r.item_id));
  }

  /**
   * Writes each vector unless the item already has one of this model (a redelivery
   * writes nothing twice) or its text changed meanwhile (the vector would be stale).
   * Returns the ids written.
   */
  async write(
    manager: EntityManager,
    kind: ItemKind,
    items: ReadonlyArray<TextToEmbed & { vector: readonly number[] }>,
    modelId: string,
  ): Promise<string[]> {
    if (items.length === 0) return [];
    const rows: Array<{ item_id: string }> = await manager.query(
      `INSERT INTO embeddings AS e (item_kind, item_id, tenant_id, model, embedding)
       SELECT $1, t.id, t.tenant_id, $2, v.vector::halfvec
         FROM unnest($3::bigint[], $4::text[], $5::text[]) AS v(id, vector, digest)
         JOIN ${ITEMS[kind].table} t ON t.id = v.id AND md5(t.content) = v.digest
       ON CONFLICT (tenant_id, item_kind, item_id) DO UPDATE
         SET model = excluded.model, embedding = excluded.embedding, embedded_at = now()
         WHERE e.model IS DISTINCT FROM excluded.model
       RETURNING e.item_id`,
      [
        kind,
        modelId,
        items.map((i) => i.id),
        items.map((i) => `[${i.vector.join(',')}]`),
        items.map((i) => digest(i.text)),
      ],
    );
    return rows.map((r) => String(r.item_id));
  }

  /** Of these items, the ones whose vector is of this model. */
  async embeddedWith(
    manager: EntityManager,
    kind: ItemKind,
    ids: readonly string[],
    modelId: string,
  ): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows: Array<{ item_id: string }> = await manager.query(
      `SELECT item_id FROM embeddings WHERE item_kind = $3 AND item_id = ANY($1::bigint[]) AND model = $2 ORDER BY item_id`,
      [ids, modelId, kind],
    );
    return rows.map((r) => String(r.item_id));
  }
}
