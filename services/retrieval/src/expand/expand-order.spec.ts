import { orderExpansion, type ItemKey, type ExpansionLinks, type ExpansionSlot } from './expand-order';

const summary = (id: string): ItemKey => ({ kind: 'summary', id });
const message = (id: string): ItemKey => ({ kind: 'message', id });
const fact = (id: string): ItemKey => ({ kind: 'fact', id });
const refs = (slots: ExpansionSlot[]) =>
  slots.map((s) => `${s.kind}:${s.id}${s.expandedFrom ? ` < ${s.expandedFrom}` : ''}`);

/** A root (1) over two branches (2, 3); branch 2 over leaves 4 and 5, branch 3 over leaf 6; leaves over messages. */
const tree: ExpansionLinks = {
  children: new Map([
    ['1', [summary('2'), summary('3')]],
    ['2', [summary('4'), summary('5')]],
    ['3', [summary('6')]],
    ['4', [message('40'), message('41')]],
    ['5', [message('50')]],
    ['6', [message('60'), message('61')]],
  ]),
  neighbours: new Map([
    ['41', { before: ['39', '40'], after: ['50', '51'] }],
    ['50', { before: ['40', '41'], after: ['51', '52'] }],
  ]),
  factLinks: new Map([['7', [message('40'), message('60'), fact('8')]]]),
};

describe('orderExpansion', () => {
  it('lists a summary, then its subtree depth-first in the children’s order, down to the depth asked', () => {
    expect(refs(orderExpansion([summary('1')], tree, 3).slots)).toEqual([
      'summary:1',
      'summary:2 < summary:1',
      'summary:4 < summary:2',
      'message:40 < summary:4',
      'message:41 < summary:4',
      'summary:5 < summary:2',
      'message:50 < summary:5',
      'summary:3 < summary:1',
      'summary:6 < summary:3',
      'message:60 < summary:6',
      'message:61 < summary:6',
    ]);
    expect(refs(orderExpansion([summary('1')], tree, 1).slots)).toEqual([
      'summary:1',
      'summary:2 < summary:1',
      'summary:3 < summary:1',
    ]);
    expect(refs(orderExpansion([summary('4')], tree, 1).slots)).toEqual([
      'summary:4',
      'message:40 < summary:4',
      'message:41 < summary:4',
    ]);
  });

  it('puts a message between the turns before and after it', () => {
    expect(refs(orderExpansion([message('41')], tree, 3).slots)).toEqual([
      'message:39 < message:41',
      'message:40 < message:41',
      'message:41',
      'message:50 < message:41',
      'message:51 < message:41',
    ]);
  });

  it('follows a fact with its sources, then what superseded it', () => {
    expect(refs(orderExpansion([fact('7')], tree, 3).slots)).toEqual([
      'fact:7',
      'message:40 < fact:7',
      'message:60 < fact:7',
      'fact:8 < fact:7',
    ]);
  });

  it('lists an item reached twice once, at its first place, and answers the refs in their order', () => {
    const { slots } = orderExpansion([message('41'), message('50'), summary('5'), fact('7')], tree, 3);
    expect(refs(slots)).toEqual([
      'message:39 < message:41',
      'message:40 < message:41',
      'message:41',
      'message:50 < message:41',
      'message:51 < message:41',
      'message:52 < message:50',
      'summary:5',
      'fact:7',
      'message:60 < fact:7',
      'fact:8 < fact:7',
    ]);
    expect(orderExpansion([summary('4'), summary('4')], tree, 3).slots).toHaveLength(3);
  });

  it('keeps every asked item within the limit, leaves out expansions past it, and says so', () => {
    const whole = orderExpansion([summary('1')], tree, 3);
    expect(whole.truncated).toBe(false);
    const cut = orderExpansion([summary('1'), fact('7'), message('61')], tree, 3, 6);
    expect(cut.truncated).toBe(true);
    expect(refs(cut.slots)).toEqual([
      'summary:1',
      'summary:2 < summary:1',
      'summary:4 < summary:2',
      'message:40 < summary:4',
      'fact:7',
      'message:61',
    ]);
  });

  it('expands nothing from an item left out, so every expandedFrom names an item of the answer', () => {
    // summary:6 lies under branch 3, which no longer fits: it comes as asked, with its own expansion.
    const { slots } = orderExpansion([summary('1'), summary('6')], tree, 3, 5);
    expect(refs(slots)).toEqual([
      'summary:1',
      'summary:2 < summary:1',
      'summary:4 < summary:2',
      'message:40 < summary:4',
      'summary:6',
    ]);
    const inAnswer = new Set(slots.map((s) => `${s.kind}:${s.id}`));
    expect(slots.every((s) => s.expandedFrom === '' || inAnswer.has(s.expandedFrom))).toBe(true);
  });
});
