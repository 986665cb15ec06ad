import { parseItemRef } from '@engram/contracts';
import type { ItemKind } from '../ranking/candidate';
import type { TenantSnapshot } from './index-docs';
import type { ItemSelection } from './index-statements';
import { TenantIndex } from './tenant-index';

/**
 * What the registry needs from the store: rows of a tenant, all or by id, read under its
 * isolation; null when the tenant does not exist (it is asked again a second later).
 */
export type TenantReader = (
  tenantId: string,
  selection: ItemSelection,
) => Promise<Partial<TenantSnapshot> | null>;

export interface TenantIndexesOptions {
  readonly read: TenantReader;
  /** Indexes are evicted, least recently searched first, to stay under this. */
  readonly memoryBytes: number;
  /** How long a tenant whose load failed, or which alone exceeds the budget, is left to Postgres. */
  readonly retryAfterMs?: number;
  readonly clock?: () => number;
  readonly log?: (message: string) => void;
}

/** Selections of ids per kind, and refs ("message:12") whose vectors to read, merged. */
type Changes = { message: Set<string>; summary: Set<string>; fact: Set<string>; vectors: Set<string> };

/** What an event says changed: items to read again, and items whose vectors to read. */
export interface ItemChanges {
  readonly message?: readonly string[];
  readonly summary?: readonly string[];
  readonly fact?: readonly string[];
  readonly vectors?: ReadonlyArray<{ readonly kind: ItemKind; readonly id: string }>;
}

interface Entry {
  state: 'loading' | 'ready' | 'refused';
  index?: TenantIndex;
  bytes: number;
  lastUsed: number;
  /** Changes heard while loading, or since the last flush. */
  changes: Changes;
  /** Access counts heard, applied with the changes. */
  accesses: Array<{ refs: readonly string[]; atUs: number }>;
  retryAt: number;
  loaded?: Promise<void>;
}

/** A tenant not in the store yet is asked for again after this long. */
const UNKNOWN_TENANT_RETRY_MS = 1000;

const emptyChanges = (): Changes => ({
  message: new Set(),
  summary: new Set(),
  fact: new Set(),
  vectors: new Set(),
});

/**
 * The tenants' in-memory indexes in one process: loaded lazily (the first search of a tenant
 * starts its load and is answered by Postgres meanwhile), kept current by the changes the
 * events name (read again from the store by id), evicted least recently used under a memory
 * ceiling. Changes heard while a tenant loads are applied after the load: with the event
 * subscription made before any load, nothing committed is missed.
 */
export class TenantIndexes {
  private readonly entries = new Map<string, Entry>();
  private flushing: Promise<void> | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly clock: () => number;
  private readonly log: (message: string) => void;
  private closed = false;

  constructor(private readonly options: TenantIndexesOptions) {
    this.clock = options.clock ?? Date.now;
    this.log = options.log ?? (() => undefined);
  }

  /** The tenant's index when loaded (marking it used); otherwise starts its load and answers null. */
  ready(tenantId: string): TenantIndex | null {
    const entry = this.entries.get(tenantId);
    if (entry?.state === 'ready') {
      entry.lastUsed = this.clock();
      return entry.index!;
    }
    if (entry?.state === 'refused' && this.clock() < entry.retryAt) return null;
    if (entry?.state !== 'loading') this.load(tenantId);
    return null;
  }

  /** Resolves once the tenant's index is loaded (or its load failed): for warm-ups and tests. */
  async whenLoaded(tenantId: string): Promise<TenantIndex | null> {
    this.ready(tenantId);
    await this.entries.get(tenantId)?.loaded;
    return this.entries.get(tenantId)?.index ?? null;
  }

  /** Items of a tenant changed in the store (an event said so): read them again if it is held. */
  changed(tenantId: string, selection: ItemChanges): void {
    const entry = this.entries.get(tenantId);
    if (!entry || entry.state === 'refused') return;
    for (const kind of ['message', 'summary', 'fact'] as const)
      for (const id of selection[kind] ?? []) entry.changes[kind].add(id);
    for (const ref of selection.vectors ?? []) entry.changes.vectors.add(`${ref.kind}:${ref.id}`);
    this.scheduleFlush();
  }

  /** Items were returned by a search: their access counts grow as the store's will. */
  accessed(tenantId: string, refs: readonly string[], atUs: number): void {
    const entry = this.entries.get(tenantId);
    if (!entry || entry.state === 'refused') return;
    entry.accesses.push({ refs, atUs });
    this.scheduleFlush();
  }

  /** Measures every index again (they grow with the changes applied) and evicts beyond the memory allowed. */
  remeasure(): void {
    let newest: string | null = null;
    let newestUse = -Infinity;
    for (const [tenantId, entry] of this.entries) {
      if (entry.state !== 'ready') continue;
      entry.bytes = entry.index!.bytes;
      if (entry.lastUsed > newestUse) [newest, newestUse] = [tenantId, entry.lastUsed];
    }
    if (newest !== null) this.evict(newest);
  }

  /** Drops a tenant's index (the next search loads it again). */
  drop(tenantId: string): void {
    this.entries.delete(tenantId);
  }

  /** Tenants held, loading, and the bytes held. */
  get stats(): { tenants: number; loading: number; bytes: number } {
    let tenants = 0;
    let loading = 0;
    let bytes = 0;
    for (const e of this.entries.values()) {
      if (e.state === 'ready') tenants++;
      if (e.state === 'loading') loading++;
      bytes += e.bytes;
    }
    return { tenants, loading, bytes };
  }

  /** Tenants whose index is loaded. */
  get loadedTenants(): string[] {
    return [...this.entries].filter(([, e]) => e.state === 'ready').map(([t]) => t);
  }

  /** Applies every change heard so far; resolves once they are in the indexes. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.applyChanges().finally(() => (this.flushing = null));
    await this.flushing;
  }

  close(): void {
    this.closed = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
  }

  private load(tenantId: string): void {
    const entry: Entry = {
      state: 'loading',
      bytes: 0,
      lastUsed: this.clock(),
      changes: emptyChanges(),
      accesses: [],
      retryAt: 0,
    };
    this.entries.set(tenantId, entry);
    const started = this.clock();
    entry.loaded = this.options
      .read(tenantId, { all: true })
      .then(async (rows) => {
        if (this.entries.get(tenantId) !== entry) return;
        if (rows === null) {
          this.refuse(entry, UNKNOWN_TENANT_RETRY_MS);
          return;
        }
        const index = await buildInSlices(tenantId, rows);
        if (this.entries.get(tenantId) !== entry) return;
        entry.bytes = index.bytes;
        if (entry.bytes > this.options.memoryBytes) {
          this.log(
            `tenant ${tenantId} stays on Postgres: its index takes ${mb(entry.bytes)} MB, more than the ${mb(this.options.memoryBytes)} MB allowed`,
          );
          this.refuse(entry);
          return;
        }
        entry.index = index;
        entry.state = 'ready';
        this.log(
          `loaded tenant ${tenantId}: ${index.documents} messages, ${mb(entry.bytes)} MB, ${this.clock() - started} ms`,
        );
        this.evict(tenantId);
        this.scheduleFlush();
      })
      .catch((error: unknown) => {
        if (this.entries.get(tenantId) !== entry) return;
        this.log(
          `tenant ${tenantId} could not be loaded (Postgres answers meanwhile): ${(error as Error).message}`,
        );
        this.refuse(entry);
      });
  }

  /** Leaves the tenant to Postgres for a while. */
  private refuse(entry: Entry, forMs = this.options.retryAfterMs ?? 60_000): void {
    entry.state = 'refused';
    entry.index = undefined;
    entry.bytes = 0;
    entry.changes = emptyChanges();
    entry.accesses = [];
    entry.retryAt = this.clock() + forMs;
  }

  /** Evicts the least recently used indexes (never `keep`) until the held bytes fit. */
  private evict(keep: string): void {
    let bytes = this.stats.bytes;
    const byAge = [...this.entries]
      .filter(([t, e]) => t !== keep && e.state === 'ready')
      .sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [tenantId, entry] of byAge) {
      if (bytes <= this.options.memoryBytes) break;
      bytes -= entry.bytes;
      this.entries.delete(tenantId);
      this.log(`evicted tenant ${tenantId} (${mb(entry.bytes)} MB), least recently searched`);
    }
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      void this.flush().catch((error: unknown) =>
        this.log(`applying changes failed: ${(error as Error).message}`),
      );
    }, 5);
  }

  private async applyChanges(): Promise<void> {
    for (const [tenantId, entry] of this.entries) {
      if (entry.state !== 'ready') continue;
      const { changes, accesses } = entry;
      const items = changes.message.size + changes.summary.size + changes.fact.size + changes.vectors.size;
      if (items + accesses.length === 0) continue;
      entry.changes = emptyChanges();
      entry.accesses = [];
      try {
        const selection = {
          message: [...changes.message],
          summary: [...changes.summary],
          fact: [...changes.fact],
          vectors: [...changes.vectors].flatMap((ref) => parseItemRef(ref) ?? []),
        };
        const rows = items > 0 ? await this.options.read(tenantId, selection) : {};
        if (this.entries.get(tenantId) !== entry || rows === null) continue;
        entry.index!.apply(rows);
        for (const a of accesses) entry.index!.accessed(a.refs, a.atUs);
      } catch (error) {
        // The store could not be read: hear them again at the next flush.
        for (const kind of ['message', 'summary', 'fact', 'vectors'] as const)
          for (const id of changes[kind]) entry.changes[kind].add(id);
        entry.accesses.unshift(...accesses);
        throw error;
      }
    }
  }
}

/** Rows applied between two turns of the event loop while an index is built: searches keep being answered. */
const SLICE = 2000;

/** Builds a tenant's index from its rows a slice at a time, yielding to the event loop between slices. */
async function buildInSlices(tenantId: string, rows: Partial<TenantSnapshot>): Promise<TenantIndex> {
  const index = new TenantIndex(tenantId);
  index.apply({ conversations: rows.conversations ?? [] });
  for (const key of ['messages', 'summaries', 'facts', 'vectors', 'access'] as const) {
    const list = rows[key] ?? [];
    for (let at = 0; at < list.length; at += SLICE) {
      index.apply({ [key]: list.slice(at, at + SLICE) });
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  index.compact();
  return index;
}

const mb = (bytes: number) => Math.round(bytes / 1048576);
