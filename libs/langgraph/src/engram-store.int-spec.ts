import { InMemoryStore, type BaseStore, type Item } from '@langchain/langgraph';
import { EngramClient, Rpcs } from '@engram/client';
import { startTestEnvironment, type TestEnvironment } from '@engram/testing';
import { EngramStore } from './engram-store';

/** What two stores' items have in common whatever their clocks: namespace, key and value. */
const contentOf = (item: Item | null) =>
  item && { namespace: item.namespace, key: item.key, value: item.value };
const byPath = (items: Item[]) =>
  items.map(contentOf).sort((a, b) => `${a!.namespace}/${a!.key}`.localeCompare(`${b!.namespace}/${b!.key}`));

/**
 * EngramStore driven through the same operations as LangGraph's InMemoryStore (no conformance
 * suite for stores ships with LangGraph.js): they answer alike, except where Engram's semantics
 * differ — a listing is newest first, a query ranks by Engram's memory search.
 */
describe('EngramStore against InMemoryStore (retrieval running, real Postgres and NATS)', () => {
  let env: TestEnvironment;
  let client: EngramClient;
  let engram: EngramStore;
  let memory: InMemoryStore;

  /** Runs the same calls on both stores; their answers, Engram's first. */
  const both = async <T>(call: (store: BaseStore) => Promise<T>): Promise<[T, T]> => [
    await call(engram),
    await call(memory),
  ];

  beforeAll(async () => {
    env = await startTestEnvironment({ label: 'langgraph_store', processes: ['retrieval'] });
    client = await EngramClient.connect({ servers: env.nats.url, tenant: 'acme', agent: 'concierge' });
  });

  let tests = 0;
  beforeEach(() => {
    // An agent of its own per test: each starts with an empty store, as a new InMemoryStore does.
    engram = new EngramStore({ client, agent: `keeper-${++tests}` });
    memory = new InMemoryStore();
  });

  afterAll(async () => {
    await client?.close();
    await env?.stop();
  });

  const versionsOf = async (agent: string) =>
    (await client.call(Rpcs.factsList, { agents: [agent], includeClosed: true })).facts.reverse();

  it('puts and gets an item, and gets nothing for a key never put', async () => {
    const [stored, kept] = await both(async (store) => {
      await store.put(['memories', 'ada'], 'drink', { text: 'Ada prefers green tea', strength: 3 });
      return [await store.get(['memories', 'ada'], 'drink'), await store.get(['memories', 'ada'], 'food')];
    });
    expect(stored.map(contentOf)).toEqual(kept.map(contentOf));
    expect(stored[0]).toMatchObject({ createdAt: expect.any(Date), updatedAt: expect.any(Date) });
    expect(stored[1]).toBeNull();
  });

  it('puts an item again as the next version of the same memory, keeping when it was created', async () => {
    const [[first, second], [, kept]] = await both(async (store) => {
      await store.put(['memories', 'ada'], 'drink', { text: 'Ada prefers green tea' });
      const before = await store.get(['memories', 'ada'], 'drink');
      await store.put(['memories', 'ada'], 'drink', { text: 'Ada prefers black coffee' });
      return [before, await store.get(['memories', 'ada'], 'drink')];
    });
    expect(contentOf(second)).toEqual(contentOf(kept));
    expect(second!.createdAt).toEqual(first!.createdAt);
    expect(second!.updatedAt.getTime()).toBeGreaterThanOrEqual(first!.updatedAt.getTime());

    const versions = await versionsOf(engram.agent);
    expect(versions.map((f) => [f.content, f.validTo === undefined])).toEqual([
      ['Ada prefers green tea', false],
      ['Ada prefers black coffee', true],
    ]);
    expect(versions[1]!.firstId).toBe(versions[0]!.id);
  });

  it('writes no new version when the same value is put again (a retried put)', async () => {
    await engram.put(['memories', 'ada'], 'drink', { text: 'Ada prefers green tea' });
    await engram.put(['memories', 'ada'], 'drink', { text: 'Ada prefers green tea' });
    expect(await versionsOf(engram.agent)).toHaveLength(1);
  });

  it('makes one memory of two puts of a new item at once, the later value its current one', async () => {
    const again = new EngramStore({ client, agent: engram.agent });
    await Promise.all([
      engram.put(['memories', 'ada'], 'drink', { text: 'Ada prefers green tea' }),
      again.put(['memories', 'ada'], 'drink', { text: 'Ada prefers black coffee' }),
    ]);
    const versions = await versionsOf(engram.agent);
    expect(new Set(versions.map((f) => f.firstId))).toEqual(new Set([versions[0]!.id]));
    expect(versions.filter((f) => f.validTo === undefined)).toHaveLength(1);
    const { value } = (await engram.get(['memories', 'ada'], 'drink'))!;
    expect(['Ada prefers green tea', 'Ada prefers black coffee']).toContain(value['text']);
  });

  it('deletes an item (its fact forgotten, kept as history) and puts it again as a new memory', async () => {
    const [[gone, again], [goneToo, againToo]] = await both(async (store) => {
      await store.put(['memories', 'ada'], 'drink', { text: 'Ada prefers green tea' });
      await store.delete(['memories', 'ada'], 'drink');
      await store.delete(['memories', 'ada'], 'never-put');
      const deleted = await store.get(['memories', 'ada'], 'drink');
      await store.put(['memories', 'ada'], 'drink', { text: 'Ada prefers green tea' });
      return [deleted, await store.get(['memories', 'ada'], 'drink')];
    });
    expect([gone, contentOf(again)]).toEqual([goneToo, contentOf(againToo)]);
    const versions = await versionsOf(engram.agent);
    expect(versions.map((f) => [f.forgetReason, f.validTo === undefined])).toEqual([
      ['deleted from the LangGraph store', false],
      ['', true],
    ]);
    expect(versions[1]!.firstId).toBe(versions[1]!.id);
  });

  it('lists the items under a namespace prefix, filtered as InMemoryStore filters', async () => {
    const [found, expected] = await both(async (store) => {
      await store.put(['memories', 'ada'], 'drink', { text: 'green tea', kind: 'preference', stars: 5 });
      await store.put(['memories', 'ada'], 'city', { text: 'Zurich', kind: 'fact', stars: 2 });
      await store.put(['memories', 'bob'], 'drink', { text: 'espresso', kind: 'preference', stars: 4 });
      await store.put(['docs'], 'guide', { text: 'How to brew tea', kind: 'preference', stars: 1 });
      return Promise.all([
        store.search(['memories']),
        store.search(['memories', 'ada']),
        store.search([]),
        store.search(['memories'], { filter: { kind: 'preference' } }),
        store.search(['memories'], { filter: { stars: { $gte: 4 }, kind: { $ne: 'fact' } } }),
        store.search(['memories'], { filter: { kind: { $in: ['fact'] } } }),
        store.search(['mem']),
      ]);
    });
    expect(found.map(byPath)).toEqual(expected.map(byPath));
    expect(found[0]!.every((item) => item.score === undefined)).toBe(true);
  });

  it('pages a listing newest first, where InMemoryStore pages in the order items were first put', async () => {
    const [pages, expected] = await both(async (store) => {
      for (const key of ['a', 'b', 'c', 'd', 'e']) await store.put(['notes'], key, { text: `note ${key}` });
      return Promise.all([0, 2, 4].map((offset) => store.search(['notes'], { limit: 2, offset })));
    });
    expect(pages.map((page) => page.map((item) => item.key))).toEqual([['e', 'd'], ['c', 'b'], ['a']]);
    expect(expected.map((page) => page.map((item) => item.key))).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('ranks by Engram memory search for a query: the matching item first, with its score', async () => {
    await engram.put(['memories', 'ada'], 'drink', { text: 'Ada prefers green tea in the morning' });
    await engram.put(['memories', 'ada'], 'city', { text: 'Ada lives in Zurich' });
    await engram.put(['memories', 'bob'], 'drink', { text: 'Bob drinks green tea too' });
    await engram.put(['memories', 'ada'], 'pet', { text: 'Ada has a cat', kind: 'pet' });

    const found = await engram.search(['memories', 'ada'], { query: 'what tea does Ada drink?' });
    expect(found[0]).toMatchObject({ key: 'drink', value: { text: 'Ada prefers green tea in the morning' } });
    expect(found[0]!.score).toBeGreaterThan(0);
    expect(found.every((item) => item.namespace.join('/') === 'memories/ada')).toBe(true);

    const filtered = await engram.search(['memories'], { query: 'Ada', filter: { kind: 'pet' } });
    expect(filtered.map((item) => item.key)).toEqual(['pet']);
    const second = await engram.search(['memories'], { query: 'green tea', limit: 1, offset: 1 });
    expect(second).toHaveLength(1);
  });

  it('lists namespaces as InMemoryStore lists them: by prefix, suffix, wildcard and depth', async () => {
    const [listed, expected] = await both(async (store) => {
      for (const ns of [
        ['memories', 'ada'],
        ['memories', 'bob'],
        ['memories', 'ada', 'v1'],
        ['docs', 'v1'],
      ]) {
        await store.put(ns, 'k', { text: ns.join(' ') });
      }
      return Promise.all([
        store.listNamespaces(),
        store.listNamespaces({ prefix: ['memories'] }),
        store.listNamespaces({ suffix: ['v1'] }),
        store.listNamespaces({ prefix: ['*', 'ada'] }),
        store.listNamespaces({ maxDepth: 1 }),
        store.listNamespaces({ limit: 1, offset: 1 }),
      ]);
    });
    expect(listed).toEqual(expected);
  });

  it('runs a batch as InMemoryStore does: reads first, then the puts, the last put of an item winning', async () => {
    const [answers, expected] = await both(async (store) => {
      const answered = await store.batch([
        { namespace: ['notes'], key: 'a', value: { text: 'first' } },
        { namespace: ['notes'], key: 'a' },
        { namespace: ['notes'], key: 'a', value: { text: 'second' } },
        { namespacePrefix: ['notes'], limit: 10, offset: 0 },
      ]);
      return [answered, contentOf(await store.get(['notes'], 'a'))];
    });
    expect(answers).toEqual(expected);
  });

  it('keeps tenants apart: another tenant does not see the items', async () => {
    await engram.put(['memories', 'ada'], 'drink', { text: 'Ada prefers green tea' });
    const globex = await EngramClient.connect({
      servers: env.nats.url,
      tenant: 'globex',
      agent: engram.agent,
    });
    try {
      const theirs = new EngramStore({ client: globex });
      expect(await theirs.get(['memories', 'ada'], 'drink')).toBeNull();
      expect(await theirs.search(['memories'], { query: 'green tea' })).toEqual([]);
      expect(await theirs.listNamespaces()).toEqual([]);
    } finally {
      await globex.close();
    }
  });

  it("sees none of the agent's other facts: only what the store put is an item", async () => {
    await client.save({
      agent: engram.agent,
      content: 'Ada prefers green tea',
      metadata: { source: 'chat' },
    });
    await engram.put(['memories', 'ada'], 'drink', { text: 'Ada prefers green tea' });
    expect((await engram.search([], { query: 'green tea' })).map((item) => item.key)).toEqual(['drink']);
    expect((await engram.search([])).map((item) => item.key)).toEqual(['drink']);
  });
});
