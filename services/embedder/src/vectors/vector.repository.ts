import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@engram/store';

/** What gets a vector. */
export type ItemKind = 'message' | 'summary' | 'fact';

export interface TextToEmbed {
  readonly id: string;
  readonly text: string;
}

const TABLE: Record<ItemKind, { table: string; ageColumn: string }> = {
  message: { table: 'messages', ageColumn: 'ingested_at' },
  summary: { table: 'summaries', ageColumn: 'created_at' },
  fact: { table: 'facts', ageColumn: 'updated_at' },
};

const digest = (text: string) => createHash('md5').update(text).digest('hex');

/** Vectors in the store, under the caller's tenant transaction. */
@Injectable()
export class VectorRepository {
  /** Of these rows, the ones with text and without a vector of this model. */
  async needingVectors(manager: EntityManager, kind: ItemKind, ids: readonly string[], modelId: string): Promise<TextToEmbed[]> {
    if (ids.length === 0) return [];
    const rows: Array<{ id: string; content: string }> = await manager.query(
      `SELECT id, content FROM ${TABLE[kind].table}
        WHERE id = ANY($1::bigint[]) AND content <> '' AND embedding_model IS DISTINCT FROM $2 ORDER BY id`,
      [ids, modelId],
    );
    return rows.map((r) => ({ id: String(r.id), text: r.content }));
  }

  /**
   * Rows the event path missed or an older model embedded, oldest first, leaving
   * rows younger than `olderThan` to the event path.
   */
  async sweepCandidates(manager: EntityManager, kind: ItemKind, modelId: string, olderThan: Date, limit: number): Promise<TextToEmbed[]> {
    const { table, ageColumn } = TABLE[kind];
    const rows: Array<{ id: string; content: string }> = await manager.query(
      `SELECT id, content FROM ${table}
        WHERE (embedding_model IS NULL OR embedding_model < $1 OR embedding_model > $1)
          AND content <> '' AND ${ageColumn} < $2
        ORDER BY id LIMIT $3`,
      [modelId, olderThan.toISOString(), limit],
    );
    return rows.map((r) => ({ id: String(r.id), text: r.content }));
  }

  /**
   * Writes each vector unless the row already has one of this model (a redelivery
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
    const rows: Array<{ id: string }> = await manager.query(
      `UPDATE ${TABLE[kind].table} t
          SET embedding = v.vector::halfvec, embedding_model = $2, embedded_at = now()
         FROM unnest($1::bigint[], $3::text[], $4::text[]) AS v(id, vector, digest)
        WHERE t.id = v.id AND t.embedding_model IS DISTINCT FROM $2 AND md5(t.content) = v.digest
        RETURNING t.id`,
      [items.map((i) => i.id), modelId, items.map((i) => `[${i.vector.join(',')}]`), items.map((i) => digest(i.text))],
    );
    return rows.map((r) => String(r.id));
  }

  /** Of these rows, the ones whose vector is of this model. */
  async embeddedWith(manager: EntityManager, kind: ItemKind, ids: readonly string[], modelId: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows: Array<{ id: string }> = await manager.query(
      `SELECT id FROM ${TABLE[kind].table} WHERE id = ANY($1::bigint[]) AND embedding_model = $2 ORDER BY id`,
      [ids, modelId],
    );
    return rows.map((r) => String(r.id));
  }
}
