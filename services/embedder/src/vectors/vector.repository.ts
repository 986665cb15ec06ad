import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@engram/store';

/** What gets a vector. */
export type ItemKind = 'message' | 'summary' | 'fact';

export interface TextToEmbed {
  readonly id: string;
  readonly text: string;
}

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
   * Items the event path missed or an older model embedded, leaving items younger
   * than `olderThan` to the event path. (No ORDER BY: the tenant's own rows are
   * scanned through its index, and any missing ones will do.)
   */
  async sweepCandidates(
    manager: EntityManager,
    kind: ItemKind,
    modelId: string,
    olderThan: Date,
    limit: number,
  ): Promise<TextToEmbed[]> {
    const { table, ageColumn } = ITEMS[kind];
    const rows: Array<{ id: string; content: string }> = await manager.query(
      `SELECT t.id, t.content FROM ${table} t
        WHERE t.content <> '' AND t.${ageColumn} < $2
          AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.item_kind = $4 AND e.item_id = t.id AND e.model = $1)
        LIMIT $3`,
      [modelId, olderThan.toISOString(), limit, kind],
    );
    return rows.map((r) => ({ id: String(r.id), text: r.content }));
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
