import type { MastraDBMessage, StorageThreadType } from '@mastra/core/memory' with {
  'resolution-mode': 'import',
};
import { clonedMessages, pageOf, threadsPage } from './recall';

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 9, minute));
const said = (n: number): MastraDBMessage => ({
  id: `m${n}`,
  role: n % 2 ? 'user' : 'assistant',
  createdAt: at(n),
  content: { format: 2, parts: [{ type: 'text', text: `message ${n}` }] },
});
const ids = (messages: readonly MastraDBMessage[]) => messages.map((m) => m.id);
const five = [3, 1, 5, 2, 4].map(said);

describe('a page of recalled messages', () => {
  it('without an order: the newest page first, told oldest first, as Mastra’s Memory answers', () => {
    expect(pageOf(five, { perPage: 2 })).toEqual({
      messages: [said(4), said(5)],
      total: 5,
      page: 0,
      perPage: 2,
      hasMore: true,
    });
    expect(ids(pageOf(five, { perPage: 2, page: 2 }).messages)).toEqual(['m1']);
  });

  it('in the order asked for, or all of them', () => {
    expect(
      ids(pageOf(five, { perPage: 2, orderBy: { field: 'createdAt', direction: 'ASC' } }).messages),
    ).toEqual(['m1', 'm2']);
    expect(
      ids(pageOf(five, { perPage: 2, orderBy: { field: 'createdAt', direction: 'DESC' } }).messages),
    ).toEqual(['m5', 'm4']);
    expect(pageOf(five, { perPage: false })).toMatchObject({ total: 5, hasMore: false });
    expect(ids(pageOf(five, { perPage: false }).messages)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('within a date range, its ends included unless excluded', () => {
    const range = { start: at(2), end: at(4) };
    expect(ids(pageOf(five, { perPage: false, filter: { dateRange: range } }).messages)).toEqual([
      'm2',
      'm3',
      'm4',
    ]);
    const open = { ...range, startExclusive: true, endExclusive: true };
    expect(ids(pageOf(five, { perPage: false, filter: { dateRange: open } }).messages)).toEqual(['m3']);
  });
});

describe('a page of threads', () => {
  const thread = (id: string, resourceId: string, minute: number, metadata = {}): StorageThreadType => ({
    id,
    resourceId,
    title: id,
    metadata,
    createdAt: at(minute),
    updatedAt: at(60 - minute),
  });
  const threads = [
    thread('a', 'ada', 1, { kind: 'travel' }),
    thread('b', 'ada', 2),
    thread('c', 'bea', 3, { kind: 'travel' }),
  ];

  it('of a resource and with every metadata pair asked for, newest created first', () => {
    expect(threadsPage(threads, { filter: { resourceId: 'ada' } }).threads.map((t) => t.id)).toEqual([
      'b',
      'a',
    ]);
    expect(
      threadsPage(threads, { filter: { metadata: { kind: 'travel' } } }).threads.map((t) => t.id),
    ).toEqual(['c', 'a']);
  });

  it('in the order and page asked for', () => {
    const page = threadsPage(threads, {
      orderBy: { field: 'updatedAt', direction: 'ASC' },
      perPage: 2,
      page: 0,
    });
    expect(page).toMatchObject({ total: 3, page: 0, perPage: 2, hasMore: true });
    expect(page.threads.map((t) => t.id)).toEqual(['c', 'b']);
  });
});

describe('the messages a clone copies', () => {
  const all = [1, 2, 3, 4, 5].map(said);

  it('by ids, then dates, then the newest so many', () => {
    expect(ids(clonedMessages(all, undefined))).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(ids(clonedMessages(all, { messageFilter: { messageIds: ['m2', 'm4'] } }))).toEqual(['m2', 'm4']);
    expect(
      ids(clonedMessages(all, { messageFilter: { startDate: at(2), endDate: at(4) }, messageLimit: 2 })),
    ).toEqual(['m3', 'm4']);
  });
});
