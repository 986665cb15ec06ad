import { InMemoryStore, type ListNamespacesOperation } from '@langchain/langgraph';
import { checkNamespace, fixedPrefix, listedNamespaces } from './namespaces';

describe('namespaces', () => {
  const namespaces = [
    ['memories', 'ada'],
    ['memories', 'bob'],
    ['memories', 'ada', 'v1'],
    ['docs', 'v1'],
    ['docs'],
  ];

  it.each<[string, Omit<ListNamespacesOperation, 'limit' | 'offset'> & Partial<ListNamespacesOperation>]>([
    ['all', {}],
    ['by prefix', { matchConditions: [{ matchType: 'prefix', path: ['memories'] }] }],
    ['by suffix', { matchConditions: [{ matchType: 'suffix', path: ['v1'] }] }],
    ['by wildcard', { matchConditions: [{ matchType: 'prefix', path: ['*', 'ada'] }] }],
    ['cut at a depth', { maxDepth: 1 }],
    ['a page', { limit: 2, offset: 1 }],
    [
      'by prefix and suffix',
      {
        matchConditions: [
          { matchType: 'prefix', path: ['memories'] },
          { matchType: 'suffix', path: ['v1'] },
        ],
      },
    ],
  ])('are listed %s as InMemoryStore lists them', async (_, options) => {
    // As BaseStore.listNamespaces asks: matchConditions always present, if undefined.
    const op: ListNamespacesOperation = { matchConditions: undefined, limit: 100, offset: 0, ...options };
    const store = new InMemoryStore();
    for (const ns of namespaces) await store.put(ns, 'k', { text: ns.join('/') });
    const [expected] = await store.batch([op]);
    expect(listedNamespaces(namespaces, op)).toEqual(expected);
  });

  it('narrow by the fixed part of a prefix: up to its first wildcard', () => {
    const prefix = (path: string[]): ListNamespacesOperation => ({
      matchConditions: [{ matchType: 'prefix', path }],
      limit: 10,
      offset: 0,
    });
    expect(fixedPrefix(prefix(['memories', 'ada']))).toEqual(['memories', 'ada']);
    expect(fixedPrefix(prefix(['memories', '*', 'v1']))).toEqual(['memories']);
    expect(fixedPrefix({ limit: 10, offset: 0 })).toEqual([]);
  });

  it('refuse what LangGraph refuses, and ":" which joins them', () => {
    expect(() => checkNamespace(['memories', 'ada'])).not.toThrow();
    expect(() => checkNamespace([], { allowEmpty: true })).not.toThrow();
    expect(() => checkNamespace([])).toThrow('Namespace cannot be empty.');
    for (const label of ['', 'a.b', 'a:b']) {
      expect(() => checkNamespace(['memories', label])).toThrow(/Invalid namespace label/);
    }
  });
});
