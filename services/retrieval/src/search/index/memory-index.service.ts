import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import { Followers } from '@engram/contracts';
import { NatsClient } from '@engram/messaging';
import { gauge, PeriodicTask, ShutdownBudget } from '@engram/platform';
import {
  Foreground,
  LexemeCache,
  readCatalogue,
  readConversationMessages,
  readConversationSizes,
  readDerivedCounts,
  readDerivedIds,
  readStoreChanges,
  readStoreCounts,
  readTenantRows,
  TenantIndexes,
  type ItemKind,
  type StatementRunner,
  type TenantIndex,
} from '@engram/search';
import { TenantTransactions, type OutboxRow } from '@engram/store';
import { RETRIEVAL_CONFIG, type RetrievalConfig } from '../../retrieval.config';
import { statementRunner, tenantStatementRunner } from '../../statement-runner';
import { indexChangeOf } from './index-change';

type ItemCounts = { messages: number; summaries: number; facts: number; vectors: number };

/** The indexes of every MemoryIndex of this process (tests run several), read when metrics are scraped. */
const held = new Set<TenantIndexes>();
const sumOf = (stat: 'bytes' | 'tenants') => [...held].reduce((sum, indexes) => sum + indexes.stats[stat], 0);
gauge('engram_search_index_bytes', "Bytes held by the tenants' in-memory search indexes", [], function () {
  this.set(sumOf('bytes'));
});
gauge('engram_search_index_tenants', 'Tenants whose search index is loaded', [], function () {
  this.set(sumOf('tenants'));
});
/** A strong search brings the index up to the store by reading what it lacks; beyond this many messages Postgres answers instead. */
export const STRONG_CATCH_UP_LIMIT = 5000;

/**
 * The retrieval process's in-memory search indexes (libs/search TenantIndexes), kept current
 * from MEMORY_EVENTS through an ordered consumer of this process — made before any tenant
 * loads, so no change committed after a load began is missed — and compared with the store
 * every RETRIEVAL_INDEX_RECONCILE_MS (an index that differs is loaded again).
 */
@Injectable()
export class MemoryIndex implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MemoryIndex.name);
  private readonly indexes: TenantIndexes;
  readonly lexemes = new LexemeCache();
  /** Searches in flight: a tenant's load steps aside for them. */
  readonly foreground = new Foreground();
  private events?: ConsumerMessages;
  private listening = false;
  private stopping = false;
  private readonly reconciler: PeriodicTask<number>;
  /** The store's counts at each index's last reconciliation. */
  private readonly storeCounts = new WeakMap<TenantIndex, ItemCounts>();
  /** readStoreChanges at the last reconciliation. */
  private storeChanges: string | null = null;

  constructor(
    @Inject(RETRIEVAL_CONFIG) private readonly config: RetrievalConfig,
    private readonly transactions: TenantTransactions,
    private readonly nats: NatsClient,
    private readonly shutdown: ShutdownBudget,
  ) {
    this.indexes = new TenantIndexes({
      memoryBytes: config.RETRIEVAL_INDEX_MEMORY_MB * 1024 * 1024,
      // A page of a load in a short transaction of its own; the few rows a change names in a
      // round trip per statement (five round trips, each behind the searches in the event loop, were
      // most of stored → searchable: 44 ms on average at 1,000 messages/s in bench:freshness).
      read: (tenantId, selection) =>
        selection.within
          ? this.transactions.run(tenantId, (manager) =>
              readTenantRows(statementRunner(manager), tenantId, selection),
            )
          : readTenantRows(tenantStatementRunner(this.transactions, tenantId), tenantId, selection),
      catalogue: (tenantId) =>
        this.transactions.run(tenantId, (manager) => readCatalogue(statementRunner(manager), tenantId)),
      log: (message) => this.logger.log(message),
      foreground: this.foreground,
    });
    this.reconciler = new PeriodicTask({
      name: 'the search index reconciler',
      run: () => this.compareWithStore(),
      intervalMs: config.RETRIEVAL_INDEX_RECONCILE_MS,
      shutdown,
    });
  }

  get enabled(): boolean {
    return this.config.RETRIEVAL_INDEX_MEMORY_MB > 0;
  }

  onApplicationBootstrap(): void {
    // This process's own writes (saves, forgets, updates) are in its index before their RPC answers.
    this.transactions.onOutboxCommitted((rows) => this.applyCommitted(rows));
    if (!this.enabled) {
      this.logger.log(
        'the in-memory search index is off (RETRIEVAL_INDEX_MEMORY_MB=0): Postgres answers every search',
      );
      return;
    }
    held.add(this.indexes);
    void this.listen();
    this.reconciler.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    // A reconciliation in progress ends before the indexes it reads close.
    await this.reconciler.stop();
    this.indexes.close();
    held.delete(this.indexes);
    // Closing the ordered consumer asks NATS, which may be gone.
    if (this.events) await this.shutdown.within('closing the index events consumer', this.events.close());
  }

  /** The tenant's index if loaded and current as far as this process heard; null (and a load begun) otherwise. */
  indexFor(tenantId: string): TenantIndex | null {
    if (!this.listening) return null;
    return this.indexes.ready(tenantId);
  }

  /** Loads the tenant's index now (a warm-up; tests and benchmarks). */
  async load(tenantId: string): Promise<TenantIndex | null> {
    await this.waitListening();
    return this.indexes.whenLoaded(tenantId);
  }

  /**
   * Brings the index up to every item the store holds for the tenant (consistency "strong"):
   * conversations whose message count differs from the index's are read again, and summaries
   * and facts another process wrote (the compactor, another replica) whose events have not
   * come yet. False when more than STRONG_CATCH_UP_LIMIT items would be read.
   */
  async catchUp(index: TenantIndex, run: StatementRunner): Promise<boolean> {
    const sizes = await readConversationSizes(run, index.tenantId);
    const derived = await readDerivedCounts(run, index.tenantId);
    const behind = sizes.filter((c) => c.messages > index.conversationSize(c.id));
    const lacking = (kind: ItemKind, ids: readonly string[]) =>
      ids.filter((id) => index.table(kind).slot(id) === undefined);
    const message =
      behind.length === 0
        ? []
        : lacking(
            'message',
            await readConversationMessages(
              run,
              index.tenantId,
              behind.map((c) => c.id),
            ),
          );
    const derivedLacking = async (kind: 'summary' | 'fact') =>
      derived[kind] > index.table(kind).size
        ? lacking(kind, await readDerivedIds(run, index.tenantId, kind))
        : [];
    const summary = await derivedLacking('summary');
    const fact = await derivedLacking('fact');
    const missing = { message, summary, fact };
    const count = message.length + summary.length + fact.length;
    if (count === 0) return true;
    if (count > STRONG_CATCH_UP_LIMIT) return false;
    const vectors = (Object.keys(missing) as Array<keyof typeof missing>).flatMap((kind) =>
      missing[kind].map((id) => ({ kind, id })),
    );
    index.apply(await readTenantRows(run, index.tenantId, { ...missing, vectors }));
    return true;
  }

  /** Applies the changes a committed transaction of this process announces, before it returns (never throws). */
  private async applyCommitted(rows: readonly OutboxRow[]): Promise<void> {
    if (!this.listening) return;
    try {
      let changed = false;
      for (const row of rows) {
        const change = indexChangeOf(row.subject, row.payload);
        if (change?.kind === 'erased') this.dropErased(change.tenantId);
        if (change?.kind !== 'items') continue;
        this.indexes.changed(change.tenantId, change);
        changed = true;
      }
      if (changed) await this.indexes.flush();
    } catch (error) {
      // The event will bring it, a moment later.
      this.logger.warn(`applying this process's own change failed: ${(error as Error).message}`);
    }
  }

  /**
   * Memory of the tenant was erased: its index (and a load begun before the erase) is dropped,
   * so no search ranks an erased row again; the next search loads it from the store.
   */
  private dropErased(tenantId: string): void {
    this.indexes.drop(tenantId);
    this.logger.log(`memory of tenant ${tenantId} was erased: its index is dropped until its next search`);
  }

  /** Applies every change heard so far (tests). */
  flush(): Promise<void> {
    return this.indexes.flush();
  }

  get stats() {
    return this.indexes.stats;
  }

  private async listen(): Promise<void> {
    try {
      const { js } = await this.nats.connected();
      // An ordered consumer of this process: every replica hears every change, from now on.
      const consumer = await js.consumers.get(Followers.retrievalIndexes.stream.name, {
        deliver_policy: DeliverPolicy.New,
      });
      this.events = await consumer.consume();
      this.listening = true;
      this.logger.log(
        `listening to ${Followers.retrievalIndexes.stream.name} for changes to the loaded indexes`,
      );
      for await (const m of this.events) {
        try {
          const change = indexChangeOf(m.subject, m.data);
          if (change?.kind === 'items') this.indexes.changed(change.tenantId, change);
          else if (change?.kind === 'accessed')
            this.indexes.accessed(change.tenantId, change.refs, change.atUs);
          else if (change?.kind === 'erased') this.dropErased(change.tenantId);
        } catch (error) {
          this.logger.warn(`an event on ${m.subject} could not be read: ${(error as Error).message}`);
        }
      }
    } catch (error) {
      this.logger.warn(
        `listening to ${Followers.retrievalIndexes.stream.name} failed (Postgres answers every search until it works): ${(error as Error).message}`,
      );
    } finally {
      // Without the events the indexes cannot be trusted: drop them, and listen again.
      this.listening = false;
      for (const tenantId of this.indexes.loadedTenants) this.indexes.drop(tenantId);
      // (Also when the stream was not there yet: the provisioner may still be making it.)
      if (!this.stopping) setTimeout(() => void this.listen(), 1000).unref();
    }
  }

  private async waitListening(): Promise<void> {
    for (let waited = 0; !this.listening; waited += 50) {
      if (waited > 30_000) throw new Error(`not listening to ${Followers.retrievalIndexes.stream.name}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** A reconciliation now, or the one in progress (they never overlap); resolves to the tenants it counted (tests). */
  async reconcile(): Promise<number> {
    return (await this.reconciler.runNow()) ?? 0;
  }

  /**
   * Compares each loaded index with the store's counts: one that holds less than the store held
   * a round ago (an event it never heard), or more than the store holds now, is loaded again.
   * (Counts taken under ingest always run a little ahead of the events: that alone is no drift.)
   * An index that holds what the store held last round, while the store's tables had no insert or
   * delete since, is current without counting: an idle store costs no count of every row.
   * Resolves to the tenants whose rows it counted.
   */
  private async compareWithStore(): Promise<number> {
    let counted = 0;
    const changes = await this.transactions
      .runAcrossTenants((manager) => readStoreChanges(statementRunner(manager)))
      .catch(() => null);
    const quiet = changes !== null && changes === this.storeChanges;
    this.storeChanges = changes;
    for (const tenantId of this.indexes.loadedTenants) {
      const index = this.indexes.ready(tenantId);
      if (!index) continue;
      try {
        await this.indexes.flush();
        const held = index.counts;
        const before = this.storeCounts.get(index);
        if (quiet && before && sameCounts(held, before)) continue;
        const store = await this.transactions.run(tenantId, (manager) =>
          readStoreCounts(statementRunner(manager), tenantId),
        );
        counted += 1;
        const last = before ?? { messages: 0, summaries: 0, facts: 0, vectors: 0 };
        this.storeCounts.set(index, store);
        const drifted = (Object.keys(store) as Array<keyof ItemCounts>).some(
          (k) => held[k] < last[k] || held[k] > store[k],
        );
        if (drifted) {
          this.logger.warn(
            `tenant ${tenantId}'s index differs from the store (${JSON.stringify(held)} against ${JSON.stringify(store)}): loading it again`,
          );
          this.indexes.drop(tenantId);
          this.indexes.ready(tenantId);
        }
      } catch (error) {
        // Counted again next round.
        this.storeChanges = null;
        this.logger.warn(`reconciling tenant ${tenantId} failed: ${(error as Error).message}`);
      }
    }
    this.indexes.remeasure();
    return counted;
  }
}

const sameCounts = (a: ItemCounts, b: ItemCounts) =>
  a.messages === b.messages && a.summaries === b.summaries && a.facts === b.facts && a.vectors === b.vectors;
