import { Injectable } from '@nestjs/common';
import { Events, MsgIds } from '@engram/contracts';
import { eventEntry, Outbox } from '@engram/messaging';
import { TenantTransactions } from '@engram/store';
import type { Context } from '@engram/telemetry';
import { EmbedderGertyGateway } from '../gateway/embedder-gerty.gateway';
import { VectorRepository, type ItemKind, type TextToEmbed } from './vector.repository';

/** Items that should hold vectors, and what asked for them. */
export interface EmbeddingSource {
  /** Deterministic id of the request (an event's stream position, a sweep range): it names the announcement. */
  readonly key: string;
  readonly tenantId: string;
  readonly kind: ItemKind;
  readonly ids: readonly string[];
  readonly traceContext?: Context;
}

/**
 * Gives every item a vector of the current embedding model: reads what still needs
 * one, asks Gerty for all of them at once, writes them (never over a vector of the
 * same model) and, in the same transaction, puts each source's mem.embedding.written
 * in the outbox. Run again for the same sources it embeds nothing twice, and its
 * announcements have the same msg ids (the outbox keeps one of each).
 */
@Injectable()
export class EmbedItemsUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly vectors: VectorRepository,
    private readonly gateway: EmbedderGertyGateway,
    private readonly outbox: Outbox,
  ) {}

  async embed(sources: readonly EmbeddingSource[]): Promise<void> {
    const wanted = sources.filter((s) => s.ids.length > 0);
    if (wanted.length === 0) return;
    const model = await this.gateway.embeddingModel();

    const groups = new Map<
      string,
      { tenantId: string; kind: ItemKind; ids: Set<string>; sources: EmbeddingSource[]; todo: TextToEmbed[] }
    >();
    for (const source of wanted) {
      const key = `${source.tenantId}\u0000${source.kind}`;
      const group = groups.get(key) ?? {
        tenantId: source.tenantId,
        kind: source.kind,
        ids: new Set<string>(),
        sources: [],
        todo: [],
      };
      source.ids.forEach((id) => group.ids.add(id));
      group.sources.push(source);
      groups.set(key, group);
    }
    for (const group of groups.values()) {
      group.todo = await this.transactions.run(group.tenantId, (m) =>
        this.vectors.needingVectors(m, group.kind, [...group.ids], model.modelId),
      );
    }

    const all = [...groups.values()].flatMap((g) => g.todo);
    const vectors =
      all.length > 0
        ? await this.gateway.embed(
            all.map((t) => t.text),
            model,
          )
        : [];
    let next = 0;
    for (const group of groups.values()) {
      const items = group.todo.map((item) => ({ ...item, vector: vectors[next++]! }));
      await this.transactions.run(group.tenantId, async (m) => {
        await this.vectors.write(m, group.kind, items, model.modelId);
        const holding = new Set(
          await this.vectors.embeddedWith(m, group.kind, [...group.ids], model.modelId),
        );
        await this.outbox.add(
          m,
          group.tenantId,
          group.sources.flatMap((source) => {
            const ids = source.ids.filter((id) => holding.has(id));
            if (ids.length === 0) return [];
            return [
              eventEntry(
                Events.embeddingWritten,
                source.tenantId,
                {
                  tenantId: source.tenantId,
                  kind: source.kind,
                  ids,
                  model: model.modelId,
                  dimensions: model.dimensions,
                },
                {
                  msgId: MsgIds.embeddingWritten(source.key, model.modelId),
                  traceContext: source.traceContext,
                },
              ),
            ];
          }),
        );
      });
    }
  }
}
