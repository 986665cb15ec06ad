import { parseItemRef } from '@engram/contracts';
import type { ItemKind } from '../ranking/candidate';
import type { TenantSnapshot } from './index-docs';
import type { ItemSelection } from './index-statements';
import { Foreground, nextTurn } from './foreground';
import { TenantIndex } from './tenant-index';

/** What the registry needs from the store: rows of a tenant, a page of a load or by id, read under its isolation. */
export type TenantReader = (tenantId: string, selection: ItemSelection) => Promise<Partial<TenantSnapshot>>;

/**
 * The tenant's conversations and their message counts, the plan of a load's pages; null when
 * the tenant does not exist (it is asked again a second later).
 */
export type TenantCatalogueReader = (
  tenantId: string,
) => Promise<ReadonlyArray<{ readonly id: string; readonly messages: number }> | null>;

export interface TenantIndexesOptions {
  readonly read: TenantReader;
  readonly catalogue: TenantCatalogueReader;
  /** The searches in flight, which a load steps aside for (up to LOAD_DEFERS_MS between slices). */
  readonly foreground?: Foreground;
  /** Messages a load reads per page (PAGE_MESSAGES unless a test wants many pages). */
  readonly pageMessages?: number;
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
    const current = () => this.entries.get(tenantId) === entry;
    entry.loaded = this.readPaged(tenantId, current)
      .then((index) => {
        if (!current()) return;
        if (index === null) {
          this.refuse(entry, UNKNOWN_TENANT_RETRY_MS);
          return;
        }
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
        if (!current()) return;
        this.log(
          `tenant ${tenantId} could not be loaded (Postgres answers meanwhile): ${(error as Error).message}`,
        );
        this.refuse(entry);
      });
  }

  /** Between two slices of a load: the next turn, once no search is in flight (or LOAD_DEFERS_MS passed). */
  private readonly pause = () => this.options.foreground?.quiet(LOAD_DEFERS_MS) ?? nextTurn();

  /**
   * Builds the tenant's index a page of conversations at a time, each page read in its own short
   * transaction and applied in slices with the event loop free between them: searches keep being
   * answered (by Postgres, for this tenant) and no read holds a snapshot or a connection for the
   * whole load. Rows committed meanwhile come as changes, applied after the load. Null for an
   * unknown tenant; throws when the load is no longer wanted.
   */
  private async readPaged(tenantId: string, current: () => boolean): Promise<TenantIndex | null> {
    const catalogue = await this.options.catalogue(tenantId);
    if (catalogue === null) return null;
    const index = new TenantIndex(tenantId);
    index.messages.reserve(catalogue.reduce((n, c) => n + c.messages, 0));
    const pages = loadPages(catalogue, this.options.pageMessages ?? PAGE_MESSAGES);
    for (let p = 0; p < pages.length; p++) {
      if (!current() || this.closed) throw new Error('the load is no longer wanted');
      const rows = await this.options.read(tenantId, {
        within: pages[p]!,
        unattached: p === pages.length - 1,
      });
      await applyInSlices(index, rows, this.pause);
    }
    let steps = 0;
    for (const _ of index.compacting()) if (++steps % COMPACTION_STEPS === 0) await this.pause();
    return index;
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
    }, 0);
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
          // A message with words never changes (the transcript is immutable): read only new ones, and those without words yet.
          message: [...changes.message].filter((id) => !entry.index!.messages.holdsWords(id)),
          summary: [...changes.summary],
          fact: [...changes.fact],
          vectors: [...changes.vectors].flatMap((ref) => parseItemRef(ref) ?? []),
        };
        const reads = Object.values(selection).reduce((n, ids) => n + ids.length, 0);
        const rows = reads > 0 ? await this.options.read(tenantId, selection) : {};
        if (this.entries.get(tenantId) !== entry) continue;
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

/** Messages a load reads per page (whole conversations: a page may hold one longer than this); mapping a page to docs is one block of the event loop. */
export const PAGE_MESSAGES = 250;

/**
 * The pages of a load: conversation ids in the catalogue's order, grouped so that each page holds
 * about `pageMessages` messages (a conversation is never split); always at least one page, the
 * last of which also reads the facts of no conversation.
 */
export function loadPages(
  catalogue: ReadonlyArray<{ readonly id: string; readonly messages: number }>,
  pageMessages: number,
): string[][] {
  const pages: string[][] = [[]];
  let held = 0;
  for (const c of catalogue) {
    if (held > 0 && held + c.messages > pageMessages) {
      pages.push([]);
      held = 0;
    }
    pages[pages.length - 1]!.push(c.id);
    held += c.messages;
  }
  return pages;
}

/** Rows applied between two turns of the event loop while an index is built (well under a millisecond): searches keep being answered. */
const SLICE = 100;
/** Lists compacted between two turns of the event loop. */
const COMPACTION_STEPS = 2000;
/** The longest a load waits for searches in flight before its next slice: it always progresses. */
const LOAD_DEFERS_MS = 10;

/** Applies a page's rows a slice at a time, pausing between slices. */
async function applyInSlices(
  index: TenantIndex,
  rows: Partial<TenantSnapshot>,
  pause: () => Promise<void>,
): Promise<void> {
  index.apply({ conversations: rows.conversations ?? [] });
  for (const key of ['messages', 'summaries', 'facts', 'vectors', 'access'] as const) {
    const list = rows[key] ?? [];
    for (let at = 0; at < list.length; at += SLICE) {
      index.apply({ [key]: list.slice(at, at + SLICE) });
      await pause();
    }
  }
}

const mb = (bytes: number) => Math.round(bytes / 1048576);
