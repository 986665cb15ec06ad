import fc from 'fast-check';
import { SlotList } from './columns';
import { firstInSlotOrder, intersect, matchedBits, matchedBitsOf } from './slot-merge';

const listOf = (slots: readonly number[]) => {
  const list = new SlotList();
  for (const slot of slots) list.insert(slot);
  return list;
};
const slotArrays = fc.array(fc.array(fc.nat(300), { maxLength: 120 }), { maxLength: 6 });

describe('firstInSlotOrder', () => {
  it('takes the merged lists in ascending order, once each, up to the budget of accepted slots', () => {
    fc.assert(
      fc.property(slotArrays, fc.integer({ min: 1, max: 200 }), fc.nat(4), (arrays, budget, modulo) => {
        const accept = (slot: number) => slot % (modulo + 1) === 0;
        const expected = [...new Set(arrays.flat())]
          .sort((a, b) => a - b)
          .filter(accept)
          .slice(0, budget);
        expect([...firstInSlotOrder(arrays.map(listOf), budget, accept)]).toEqual(expected);
      }),
    );
  });

  it('asks about no slot beyond the last one it takes', () => {
    const asked: number[] = [];
    firstInSlotOrder([listOf([1, 2, 3, 4, 5]), listOf([2, 9])], 2, (slot) => (asked.push(slot), true));
    expect(asked).toEqual([1, 2]);
  });
});

describe('matchedBits', () => {
  it('sets bit i where list i holds the slot, as a search per slot would', () => {
    fc.assert(
      fc.property(slotArrays, fc.array(fc.nat(320), { maxLength: 80 }), (arrays, picked) => {
        const lists = arrays.map((a, i) => (i === 2 ? undefined : listOf(a)));
        const slots = Int32Array.from(new Set(picked)).sort();
        const naive = [...slots].map((s) =>
          lists.reduce((bits, list, i) => (list && [...arrays[i]!].includes(s) ? bits | (1 << i) : bits), 0),
        );
        expect([...matchedBits(lists, slots)]).toEqual(naive);
        expect([...slots].map((s) => matchedBitsOf(lists, s))).toEqual(naive);
      }),
    );
  });
});

describe('SlotList.seek', () => {
  it('finds the first position not below the slot from any earlier position', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(500), { maxLength: 200 }),
        fc.nat(520),
        fc.nat(200),
        (slots, slot, from) => {
          const list = listOf(slots);
          const sorted = [...new Set(slots)].sort((a, b) => a - b);
          const expected = sorted.findIndex((s) => s >= slot);
          const answer = expected < 0 ? sorted.length : expected;
          const start = Math.min(from, answer);
          expect(list.seek(slot, start)).toBe(answer);
        },
      ),
    );
  });
});

describe('intersect', () => {
  it('holds exactly the slots both lists hold, ascending', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(500), { maxLength: 300 }),
        fc.array(fc.nat(500), { maxLength: 40 }),
        (a, b) => {
          const inB = new Set(b);
          const expected = [...new Set(a)].filter((s) => inB.has(s)).sort((x, y) => x - y);
          const both = intersect(listOf(a), listOf(b));
          expect(Array.from({ length: both.length }, (_, i) => both.at(i))).toEqual(expected);
        },
      ),
    );
  });
});
