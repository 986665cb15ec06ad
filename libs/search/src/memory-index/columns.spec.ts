import { Dictionary, Float64Column, SlotList } from './columns';
import { decodeHalfvec } from './index-statements';
import { SIMD_SCAN_FROM, VectorSet } from './vector-set';

describe('SlotList', () => {
  it('keeps slots sorted and once, whatever order they come in', () => {
    const list = new SlotList();
    for (const slot of [5, 1, 9, 5, 3, 1, 12]) list.insert(slot);
    expect(Array.from({ length: list.length }, (_, i) => list.at(i))).toEqual([1, 3, 5, 9, 12]);
    expect(list.has(9)).toBe(true);
    expect(list.has(4)).toBe(false);
  });

  it('inserts by another order (a conversation by time) after the equal ones', () => {
    const time = [30, 10, 20, 10];
    const list = new SlotList();
    for (const slot of [0, 1, 2, 3]) list.insertOrdered(slot, (a, b) => time[a]! - time[b]!);
    expect(Array.from({ length: list.length }, (_, i) => list.at(i))).toEqual([1, 3, 2, 0]);
  });
});

describe('columns and dictionaries', () => {
  it('reads the fill value past the end and keeps what was set when growing', () => {
    const column = new Float64Column();
    column.set(40, 7);
    expect(column.get(40)).toBe(7);
    expect(column.get(3)).toBeNaN();
    expect(column.get(1000)).toBeNaN();
  });

  it('numbers strings once, null as -1, unknown lookups as a number no row has', () => {
    const names = new Dictionary();
    expect(names.intern('Ada')).toBe(0);
    expect(names.intern('Bob')).toBe(1);
    expect(names.intern('Ada')).toBe(0);
    expect(names.intern(null)).toBe(-1);
    expect(names.find('Carol')).toBe(-2);
    expect(names.value(1)).toBe('Bob');
  });
});

describe('VectorSet', () => {
  it('finds the nearest by cosine, replaces a vector in place and skips zero vectors', () => {
    const set = new VectorSet(2);
    set.put(0, Float32Array.of(1, 0));
    set.put(1, Float32Array.of(0, 1));
    set.put(2, Float32Array.of(1, 1));
    set.put(3, Float32Array.of(0, 0));
    expect(set.nearest(Float32Array.of(1, 0.1), 2)).toEqual([0, 2]);
    set.put(0, Float32Array.of(-1, 0));
    expect(set.nearest(Float32Array.of(1, 0.1), 2)).toEqual([2, 1]);
    expect(set.cosine(2, Float32Array.of(1, 1), 2)).toBeCloseTo(1, 6);
    expect(set.cosine(3, Float32Array.of(1, 1), 2)).toBeNull();
    expect(set.rows).toBe(4);
  });
});

describe('decodeHalfvec', () => {
  it("reads pgvector's binary halfvec (as `halfvec_send('[1,2.5,-0.333]')` gives it)", () => {
    const bytes = Buffer.from('000300003c004100b554', 'hex');
    expect(Array.from(decodeHalfvec(bytes))).toEqual([1, 2.5, -0.3330078125]);
  });
});

describe('VectorSet beyond SIMD_SCAN_FROM', () => {
  it('finds the same nearest through the SIMD scan as the loop does', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const vectors = Array.from({ length: SIMD_SCAN_FROM + 100 }, () =>
      Float32Array.from({ length: 8 }, random),
    );
    const small = new VectorSet(8);
    const large = new VectorSet(8);
    vectors.slice(0, SIMD_SCAN_FROM - 1).forEach((v, slot) => small.put(slot, v));
    vectors.forEach((v, slot) => large.put(slot, v));
    large.put(SIMD_SCAN_FROM + 5, new Float32Array(8)); // a zero vector is never among the nearest
    const query = Float32Array.from({ length: 8 }, random);
    const expected = vectors
      .map((_, slot) => ({
        slot,
        cosine: large.cosine(
          slot,
          query,
          query.reduce((n, x) => n + x * x, 0),
        ),
      }))
      .filter((x) => x.cosine !== null)
      .sort((a, b) => b.cosine! - a.cosine!)
      .slice(0, 10)
      .map((x) => x.slot);
    expect(large.nearest(query, 10)).toEqual(expected);
    expect(small.nearest(query, 3)).toHaveLength(3);
  });
});
