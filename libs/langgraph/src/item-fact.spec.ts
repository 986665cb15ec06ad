import { timestampFromDate } from '@engram/client';
import {
  inForce,
  itemMetadata,
  itemOf,
  itemSaveKey,
  itemSelector,
  prefixSelector,
  type Fact,
} from './item-fact';

const fact = (fields: Partial<Fact>): Fact => ({ id: '7', ...fields }) as Fact;
const at = (iso: string) => timestampFromDate(new Date(iso));

describe('an item as a fact', () => {
  it('keeps the namespace, its joined path and prefixes, the key and the value as JSON keeps it', () => {
    expect(
      itemMetadata(['memories', 'ada'], 'drink', {
        likes: 'tea',
        since: new Date('2026-01-01T00:00:00Z'),
        gone: undefined,
      }),
    ).toEqual({
      langgraph: {
        namespace: ['memories', 'ada'],
        path: 'memories:ada',
        prefixes: ['memories', 'memories:ada'],
        key: 'drink',
        value: { likes: 'tea', since: '2026-01-01T00:00:00.000Z' },
      },
    });
  });

  it('selects one item by path and key, and a prefix with the equalities of a filter', () => {
    expect(itemSelector(['memories', 'ada'], 'drink')).toEqual({
      langgraph: { path: 'memories:ada', key: 'drink' },
    });
    expect(prefixSelector(['memories'], { likes: 'tea' })).toEqual({
      langgraph: { prefixes: ['memories'], value: { likes: 'tea' } },
    });
    // Every item: the root alone, which only EngramStore's facts hold.
    expect(prefixSelector([])).toEqual({ langgraph: {} });
  });

  it('saves each item and each life of it under its own idempotency key, within the 200 characters a key may have', () => {
    const key = itemSaveKey(['memories', 'ada'], 'drink');
    expect(itemSaveKey(['memories', 'ada'], 'drink')).toBe(key);
    expect(itemSaveKey(['memories', 'bob'], 'drink')).not.toBe(key);
    expect(itemSaveKey(['memories'], 'ada:drink')).not.toBe(key);
    expect(itemSaveKey(['memories', 'ada'], 'drink', '42')).toBe(`${key}:after:42`);
    expect(itemSaveKey(['x'.repeat(500)], 'y'.repeat(500), '9'.repeat(19)).length).toBeLessThanOrEqual(200);
  });

  it('reads the item back: created when first put, updated when this version was written', () => {
    const metadata = itemMetadata(['memories', 'ada'], 'drink', { likes: 'tea' });
    expect(itemOf(fact({ metadata, createdAt: at('2026-03-01T10:00:00Z') }))).toEqual({
      namespace: ['memories', 'ada'],
      key: 'drink',
      value: { likes: 'tea' },
      createdAt: new Date('2026-03-01T10:00:00Z'),
      updatedAt: new Date('2026-03-01T10:00:00Z'),
    });
    const later = itemMetadata(
      ['memories', 'ada'],
      'drink',
      { likes: 'coffee' },
      new Date('2026-03-01T10:00:00Z'),
    );
    expect(itemOf(fact({ metadata: later, createdAt: at('2026-03-02T08:00:00Z') }))).toMatchObject({
      value: { likes: 'coffee' },
      createdAt: new Date('2026-03-01T10:00:00Z'),
      updatedAt: new Date('2026-03-02T08:00:00Z'),
    });
  });

  it('reads no item from a fact the store did not write', () => {
    expect(itemOf(fact({ metadata: { source: 'mem0' } }))).toBeNull();
    expect(itemOf(fact({}))).toBeNull();
  });

  it('counts a fact in force until it is closed or expires', () => {
    const now = new Date('2026-03-01T00:00:00Z');
    expect(inForce(fact({}), now)).toBe(true);
    expect(inForce(fact({ validTo: at('2026-02-01T00:00:00Z') }), now)).toBe(false);
    expect(inForce(fact({ expiresAt: at('2026-02-28T00:00:00Z') }), now)).toBe(false);
    expect(inForce(fact({ expiresAt: at('2026-04-01T00:00:00Z') }), now)).toBe(true);
  });
});
