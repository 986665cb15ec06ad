import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ShutdownBudget } from '@engram/platform';
import { Consumers } from '@engram/contracts';
import { NatsClient } from '@engram/messaging';
import { DataSource, TenantTransactions, tryWithAdvisoryLock } from '@engram/store';
import { EMBEDDER_CONFIG, type EmbedderConfig } from '../embedder.config';
import { EmbedderGertyGateway, type EmbeddingModel } from '../gateway/embedder-gerty.gateway';
import { EmbedItemsUseCase } from './embed-items.use-case';
import { VectorRepository, type ItemKind } from './vector.repository';

const KINDS: readonly ItemKind[] = ['message', 'summary', 'fact'];
const PAGE = 256;

/**
 * Every EMBEDDER_SWEEP_INTERVAL_MS, tenant by tenant, embeds the rows that have no
 * vector of the current model: events that were lost or dead-lettered, rows written
 * before the embedder ran, and everything after the embedding model changed. One
 * replica sweeps a tenant at a time; rows younger than the grace period, and every
 * row while the event consumers still have a backlog, are left to the event path
 * (otherwise both would ask Gerty for the same vectors while catching up).
 */
@Injectable()
export class VectorSweepService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('VectorSweep');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopping = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly nats: NatsClient,
    private readonly transactions: TenantTransactions,
    private readonly vectors: VectorRepository,
    private readonly gateway: EmbedderGertyGateway,
    private readonly embedItems: EmbedItemsUseCase,
    private readonly shutdown: ShutdownBudget,
    @Inject(EMBEDDER_CONFIG) private readonly config: EmbedderConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweepOnce(), this.config.EMBEDDER_SWEEP_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    // A sweep waits on Postgres and on Gerty over NATS; it stops at its next page.
    if (this.running) await this.shutdown.within('the vector sweep', this.running);
  }

  /** One pass over every tenant; a pass never overlaps the previous one. Returns rows embedded. */
  sweepOnce(): Promise<void> {
    this.running ??= this.sweep()
      .catch((error: unknown) => this.logger.warn(`sweep stopped: ${(error as Error).message}`))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async sweep(): Promise<void> {
    if (!this.dataSource.isInitialized || (await this.eventsBacklogged())) return;
    const model = await this.gateway.embeddingModel();
    const tenants: Array<{ tenant_id: string }> = await this.dataSource.query(
      'SELECT engram_tenant_ids() AS tenant_id',
    );
    let embedded = 0;
    for (const { tenant_id: tenantId } of tenants) {
      if (this.stopping) return;
      // Another replica sweeping this tenant: leave it to them.
      embedded +=
        (await tryWithAdvisoryLock(this.dataSource, `sweep/${tenantId}`, () =>
          this.sweepTenant(tenantId, model),
        )) ?? 0;
    }
    if (embedded > 0) this.logger.log(`sweep embedded ${embedded} rows with ${model.modelId}`);
  }

  private async sweepTenant(tenantId: string, model: EmbeddingModel): Promise<number> {
    let embedded = 0;
    for (const kind of KINDS) {
      for (;;) {
        if (this.stopping) return embedded;
        const olderThan = new Date(Date.now() - this.config.EMBEDDER_SWEEP_GRACE_MS);
        const page = await this.transactions.run(tenantId, (m) =>
          this.vectors.sweepCandidates(m, kind, model.modelId, olderThan, PAGE),
        );
        if (page.length === 0) break;
        const ids = page.map((p) => p.id).sort((a, b) => Number(BigInt(a) - BigInt(b)));
        await this.embedItems.execute([
          { key: `sweep:${tenantId}:${kind}:${ids[0]}-${ids[ids.length - 1]}`, tenantId, kind, ids },
        ]);
        embedded += page.length;
      }
    }
    return embedded;
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
