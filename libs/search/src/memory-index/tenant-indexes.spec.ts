import type { MessageDoc, TenantSnapshot } from './index-docs';
import type { ItemSelection } from './index-statements';
import { TenantIndex } from './tenant-index';
import { loadPages, TenantIndexes } from './tenant-indexes';

const message = (id: string, words: string[]): MessageDoc => ({
  id,
  conversationId: '1',
  agent: 'helper',
  role: 'user',
  author: null,
  createdAtUs: Number(id) * 1000,
  streamSeq: Number(id),
  position: 0,
  tokenEstimate: words.length,
  language: 'english',
  asks: false,
  lexemes: words,
});

/** A store of tenants with n messages each, whose reads can be held back to interleave with events. */
function store(sizes: Record<string, number>) {
  const added: Record<string, MessageDoc[]> = {};
  const reads: Array<{ tenantId: string; selection?: ItemSelection }> = [];
  let hold: Promise<void> | null = null;
  const rows = (tenantId: string) => [
    ...Array.from({ length: sizes[tenantId] ?? 0 }, (_, i) =>
      message(String(i + 1), [`w${i}`, `${tenantId}`]),
    ),
    ...(added[tenantId] ?? []),
  ];
  return {
    reads,
    add: (tenantId: string, m: MessageDoc) => (added[tenantId] ??= []).push(m),
    holdReads: () => {
      let release!: () => void;
      hold = new Promise((r) => (release = r));
      return () => {
        hold = null;
        release();
      };
    },
    read: async (tenantId: string, selection: ItemSelection): Promise<Partial<TenantSnapshot>> => {
      reads.push({ tenantId, selection });
      const snapshot = rows(tenantId);
      if (hold) await hold;
      if (selection.within)
        return { messages: snapshot.filter((m) => selection.within.includes(m.conversationId)) };
      return { messages: rows(tenantId).filter((m) => selection.message?.includes(m.id)) };
    },
    catalogue: async (tenantId: string) => {
      reads.push({ tenantId });
      if (hold) await hold;
      if (!(tenantId in sizes)) return null;
      const messages = rows(tenantId).length;
      return [{ id: '1', messages }];
    },
  };
}

describe('TenantIndexes', () => {
  it('loads a tenant on its first search (answering null meanwhile) and serves it after', async () => {
    const s = store({ acme: 10 });
    const indexes = new TenantIndexes({ read: s.read, catalogue: s.catalogue, memoryBytes: 1 << 30 });
    expect(indexes.ready('acme')).toBeNull();
    expect((await indexes.whenLoaded('acme'))?.documents).toBe(10);
    expect(indexes.ready('acme')?.documents).toBe(10);
    // Its catalogue, then its one page.
    expect(s.reads).toEqual([
      { tenantId: 'acme' },
      { tenantId: 'acme', selection: { within: ['1'], unattached: true } },
    ]);
    indexes.close();
  });

  it('applies a change heard while the tenant loaded once the load is done', async () => {
    const s = store({ acme: 3 });
    const indexes = new TenantIndexes({ read: s.read, catalogue: s.catalogue, memoryBytes: 1 << 30 });
    const release = s.holdReads();
    indexes.ready('acme');
    // Committed after the load read its snapshot, announced while it was still loading.
    s.add('acme', message('99', ['late']));
    indexes.changed('acme', { message: ['99'] });
    release();
    await indexes.whenLoaded('acme');
    await indexes.flush();
    expect(indexes.ready('acme')?.messages.slot('99')).toBeDefined();
    indexes.close();
  });

  it('counts an access per ref a search returned, keeping the latest time', async () => {
    const s = store({ acme: 3 });
    const indexes = new TenantIndexes({ read: s.read, catalogue: s.catalogue, memoryBytes: 1 << 30 });
    const index = (await indexes.whenLoaded('acme'))!;
    indexes.accessed('acme', ['message:1', 'message:2', 'summary:9'], 5_000);
    indexes.accessed('acme', ['message:1'], 3_000);
    await indexes.flush();
    const slot = index.messages.slot('1')!;
    expect(index.messages.accessCount.get(slot)).toBe(2);
    expect(index.messages.lastAccess.get(slot)).toBe(5_000);
    expect(index.messages.accessCount.get(index.messages.slot('3')!)).toBe(0);
    indexes.close();
  });

  it('does not read again a message it holds with its words (the transcript never changes)', async () => {
    const s = store({ acme: 3 });
    const indexes = new TenantIndexes({ read: s.read, catalogue: s.catalogue, memoryBytes: 1 << 30 });
    await indexes.whenLoaded('acme');
    const reads = s.reads.length;
    s.add('acme', message('4', []));
    indexes.changed('acme', { message: ['1', '4'] });
    await indexes.flush();
    expect(s.reads.slice(reads).map((r) => r.selection)).toEqual([
      { message: ['4'], summary: [], fact: [], vectors: [] },
    ]);
    indexes.changed('acme', { message: ['2'] });
    await indexes.flush();
    expect(s.reads).toHaveLength(reads + 1);
    indexes.close();
  });

  it('ignores changes of tenants it does not hold', async () => {
    const s = store({ acme: 3 });
    const indexes = new TenantIndexes({ read: s.read, catalogue: s.catalogue, memoryBytes: 1 << 30 });
    indexes.changed('acme', { message: ['1'] });
    await indexes.flush();
    expect(s.reads).toHaveLength(0);
    indexes.close();
  });

  it('evicts the least recently searched tenant to stay under the memory allowed', async () => {
    const s = store({ a: 200, b: 200, c: 200 });
    const probe = new TenantIndexes({ read: s.read, catalogue: s.catalogue, memoryBytes: 1 << 30 });
    const oneTenant = (await probe.whenLoaded('a'))!.bytes;
    const indexes = new TenantIndexes({
      read: s.read,
      catalogue: s.catalogue,
      memoryBytes: Math.floor(oneTenant * 2.5),
    });
    await indexes.whenLoaded('a');
    await indexes.whenLoaded('b');
    indexes.ready('a'); // a is now more recent than b
    await indexes.whenLoaded('c');
    expect(indexes.loadedTenants.sort()).toEqual(['a', 'c']);
    expect(indexes.stats.bytes).toBeLessThanOrEqual(Math.floor(oneTenant * 2.5));
    probe.close();
    indexes.close();
  });

  it('measures indexes again as changes grow them, and evicts the least recently searched', async () => {
    const s = store({ a: 100, b: 100 });
    const probe = new TenantIndexes({ read: s.read, catalogue: s.catalogue, memoryBytes: 1 << 30 });
    const oneTenant = (await probe.whenLoaded('a'))!.bytes;
    const indexes = new TenantIndexes({
      read: s.read,
      catalogue: s.catalogue,
      memoryBytes: Math.floor(oneTenant * 2.2),
    });
    await indexes.whenLoaded('a');
    await indexes.whenLoaded('b');
    const grown = Array.from({ length: 200 }, (_, i) => message(String(1000 + i), [`new${i}`, 'a']));
    grown.forEach((m) => s.add('a', m));
    indexes.changed('a', { message: grown.map((m) => m.id) });
    await indexes.flush();
    indexes.ready('a');
    indexes.remeasure();
    expect(indexes.loadedTenants).toEqual(['a']);
    probe.close();
    indexes.close();
  });

  it('leaves a tenant bigger than the memory allowed, or unknown, to Postgres for a while', async () => {
    let now = 0;
    const s = store({ big: 500 });
    const indexes = new TenantIndexes({
      read: s.read,
      catalogue: s.catalogue,
      memoryBytes: 1000,
      retryAfterMs: 60_000,
      clock: () => now,
    });
    expect(await indexes.whenLoaded('big')).toBeNull();
    expect(await indexes.whenLoaded('nobody')).toBeNull();
    const reads = s.reads.length;
    indexes.ready('big');
    indexes.ready('nobody');
    expect(s.reads).toHaveLength(reads);
    now = 2000; // an unknown tenant is asked for again after a second, a big one after a minute
    indexes.ready('big');
    indexes.ready('nobody');
    expect(s.reads.map((r) => r.tenantId).slice(reads)).toEqual(['nobody']);
    indexes.close();
  });
});

describe('loadPages', () => {
  it('groups whole conversations, in order, into pages of about the size asked', () => {
    const catalogue = [
      { id: '1', messages: 3 },
      { id: '2', messages: 4 },
      { id: '3', messages: 9 },
      { id: '4', messages: 1 },
      { id: '5', messages: 0 },
    ];
    expect(loadPages(catalogue, 7)).toEqual([['1', '2'], ['3'], ['4', '5']]);
  });

  it('gives one (empty) page for a tenant of no conversations: its unattached facts are still read', () => {
    expect(loadPages([], 5000)).toEqual([[]]);
  });
});

describe('TenantIndex bytes', () => {
  it('grows with what is applied, and stays as measured while nothing is', () => {
    const index = new TenantIndex('acme');
    index.apply({ messages: [message('1', ['kangaroo'])] });
    const one = index.bytes;
    expect(index.bytes).toBe(one);
    index.accessed(['message:1'], 5);
    expect(index.bytes).toBe(one);
    index.apply({
      messages: Array.from({ length: 200 }, (_, i) => message(String(i + 2), [`word${i}`, 'wombat'])),
    });
    expect(index.bytes).toBeGreaterThan(one);
  });
});
