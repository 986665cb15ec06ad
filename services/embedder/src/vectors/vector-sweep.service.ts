import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PeriodicTask, ShutdownBudget } from '@engram/platform';
import { Consumers } from '@engram/contracts';
import { nextMark, SettledIds } from '@engram/memory-core';
import { NatsClient } from '@engram/messaging';
import { DataSource, TenantTransactions, tryWithAdvisoryLock } from '@engram/store';
import { EMBEDDER_CONFIG, type EmbedderConfig } from '../embedder.config';
import { EmbedderGertyGateway, type EmbeddingModel } from '../gateway/embedder-gerty.gateway';
import { EmbedItemsUseCase } from './embed-items.use-case';
import { KINDS, VectorRepository, type ItemKind } from './vector.repository';

const PAGE = 256;
/** A tenant where nothing settled is still looked at every this many passes (vectors another model made meanwhile). */
const LOOK_AGAIN_EVERY = 6;

/**
 * Every EMBEDDER_SWEEP_INTERVAL_MS, tenant by tenant, embeds the rows that have no
 * vector of the current model: events that were lost or dead-lettered, rows written
 * before the embedder ran, and everything after the embedding model changed. One
 * replica sweeps a tenant at a time; rows younger than the grace period, and every
 * row while the event consumers still have a backlog, are left to the event path
 * (otherwise both would ask Gerty for the same vectors while catching up).
 *
 * A pass costs what was written since the last one, not what the tenant holds: rows are read
 * only above the tenant's mark (vector_sweep_marks), up to the ids settled (SettledIds: no row
 * below them can still commit), and a mark never passes a row still without a vector; vectors
 * of another model are found through their index. When no id settled since a tenant's last
 * pass and the model is the same, the tenant is read only every LOOK_AGAIN_EVERY passes.
 */
@Injectable()
export class VectorSweepService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(VectorSweepService.name);
  private readonly passes: PeriodicTask<number>;
  private readonly settledIds = new SettledIds();
  /** Per tenant, the settled ids and model of its last complete pass, and the passes that skipped it since. */
  private readonly lastPass = new Map<string, { key: string; skipped: number }>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly nats: NatsClient,
    private readonly transactions: TenantTransactions,
    private readonly vectors: VectorRepository,
    private readonly gateway: EmbedderGertyGateway,
    private readonly embedItems: EmbedItemsUseCase,
    @Inject(EMBEDDER_CONFIG) private readonly config: EmbedderConfig,
    shutdown: ShutdownBudget,
  ) {
    this.passes = new PeriodicTask({
      name: 'the vector sweep',
      run: () => this.sweep(),
      intervalMs: config.EMBEDDER_SWEEP_INTERVAL_MS,
      shutdown,
    });
  }

  onApplicationBootstrap(): void {
    // A first look now: ids settle two passes later, not three.
    void this.observe().catch(() => undefined);
    this.passes.start();
  }

  /** A sweep waits on Postgres and on Gerty over NATS; it stops at its next page. */
  async onApplicationShutdown(): Promise<void> {
    await this.passes.stop();
  }

  /** One pass over every tenant, or the one in progress (passes never overlap). Resolves to the rows embedded. */
  async sweepOnce(): Promise<number> {
    return (await this.passes.runNow()) ?? 0;
  }

  private async observe(): Promise<Readonly<Record<string, bigint>> | null> {
    if (!this.dataSource.isInitialized) return null;
    return this.settledIds.observe(await this.vectors.observeIds(this.dataSource));
  }

  private async sweep(): Promise<number> {
    const settled = await this.observe();
    if (!settled || (await this.eventsBacklogged())) return 0;
    const model = await this.gateway.embeddingModel();
    const passKey = JSON.stringify({ model: model.modelId, settled: KINDS.map((k) => String(settled[k])) });
    const tenants: Array<{ tenant_id: string }> = await this.dataSource.query(
      'SELECT engram_tenant_ids() AS tenant_id',
    );
    let embedded = 0;
    for (const { tenant_id: tenantId } of tenants) {
      if (this.passes.stopping) break;
      // Nothing settled since this tenant's last complete pass, and the same model: nothing new to read.
      const last = this.lastPass.get(tenantId);
      if (last?.key === passKey && ++last.skipped < LOOK_AGAIN_EVERY) continue;
      // Another replica sweeping this tenant: leave it to them.
      const swept = await tryWithAdvisoryLock(this.dataSource, `sweep/${tenantId}`, () =>
        this.sweepTenant(tenantId, model, settled),
      );
      if (!swept) continue;
      embedded += swept.embedded;
      if (swept.complete) this.lastPass.set(tenantId, { key: passKey, skipped: 0 });
      else this.lastPass.delete(tenantId);
    }
    if (embedded > 0) this.logger.log(`sweep embedded ${embedded} rows with ${model.modelId}`);
    return embedded;
  }

  private async sweepTenant(
    tenantId: string,
    model: EmbeddingModel,
    settled: Readonly<Record<string, bigint>>,
  ): Promise<{ embedded: number; complete: boolean }> {
    let embedded = 0;
    let complete = true;
    // One transaction reads the marks and the first vectors of another model of every kind.
    const { marks, stale } = await this.transactions.run(tenantId, async (m) => {
      const stale = new Map<ItemKind, string[]>();
      for (const kind of KINDS)
        stale.set(kind, await this.vectors.embeddedByOtherModels(m, tenantId, kind, model.modelId, PAGE));
      return { marks: await this.vectors.sweepMarks(m, tenantId), stale };
    });
    for (const kind of KINDS) {
      const through = settled[kind] ?? 0n;
      let mark = marks.get(kind) ?? 0n;
      while (mark < through) {
        if (this.passes.stopping) return { embedded, complete: false };
        const olderThan = new Date(Date.now() - this.config.EMBEDDER_SWEEP_GRACE_MS);
        const page = await this.transactions.run(tenantId, (m) =>
          this.vectors.unswept(m, tenantId, kind, { afterId: mark, throughId: through }, olderThan, PAGE),
        );
        const holding = await this.embed(
          tenantId,
          kind,
          model,
          page.filter((row) => !row.young),
        );
        embedded += holding.size;
        const next = nextMark(
          mark,
          through,
          page.map((row) => ({ id: BigInt(row.id), young: row.young, embedded: holding.has(row.id) })),
          PAGE,
        );
        if (next.mark > mark) {
          const moved = next.mark;
          await this.transactions.run(tenantId, (m) => this.vectors.saveSweepMark(m, tenantId, kind, moved));
          mark = moved;
        }
        if (!next.more) break;
      }
      // Stopped below a row still without a vector: read again next pass.
      if (mark < through) complete = false;
      for (let first = true; ; first = false) {
        if (this.passes.stopping) return { embedded, complete: false };
        const ids = first
          ? stale.get(kind)!
          : await this.transactions.run(tenantId, (m) =>
              this.vectors.embeddedByOtherModels(m, tenantId, kind, model.modelId, PAGE),
            );
        const holding = await this.embed(
          tenantId,
          kind,
          model,
          ids.map((id) => ({ id })),
        );
        embedded += holding.size;
        if (ids.length < PAGE || holding.size === 0) {
          if (holding.size < ids.length) complete = false;
          break;
        }
      }
    }
    return { embedded, complete };
  }

  /** Embeds these items (an announcement named after their range); the ids that hold a vector of the model after it. */
  private async embed(
    tenantId: string,
    kind: ItemKind,
    model: EmbeddingModel,
    items: ReadonlyArray<{ id: string }>,
  ): Promise<Set<string>> {
    if (items.length === 0) return new Set();
    const ids = items.map((p) => p.id).sort((a, b) => Number(BigInt(a) - BigInt(b)));
    await this.embedItems.embed([
      { key: `sweep:${tenantId}:${kind}:${ids[0]}-${ids[ids.length - 1]}`, tenantId, kind, ids },
    ]);
    return new Set(
      await this.transactions.run(tenantId, (m) => this.vectors.embeddedWith(m, kind, ids, model.modelId)),
    );
  }

  /** Events waiting for, or held by, an embedder: the event path is still catching up. */
  private async eventsBacklogged(): Promise<boolean> {
    const { jsm } = await this.nats.connected();
    for (const spec of [Consumers.embedderMessages, Consumers.embedderSummaries, Consumers.embedderFacts]) {
      const info = await jsm.consumers.info(spec.stream.name, spec.durable).catch(() => null);
      if (info && info.num_pending + info.num_ack_pending > 0) return true;
    }
    return false;
  }
}
