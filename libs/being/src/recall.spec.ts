import { memoryTag, shuffle } from './recall';

/** A fixed sequence of "random" numbers. */
const sequence = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

describe('shuffle', () => {
  it('is Fisher–Yates: each position swaps with one at or before it', () => {
    // i=3: j=floor(0.9*4)=3; i=2: j=floor(0*3)=0; i=1: j=floor(0.5*2)=1.
    expect(shuffle(['a', 'b', 'c', 'd'], sequence(0.9, 0, 0.5))).toEqual(['c', 'b', 'a', 'd']);
  });

  it('keeps every item and leaves the input alone', () => {
    const items = [1, 2, 3, 4, 5];
    const out = shuffle(items);
    expect([...out].sort()).toEqual(items);
    expect(items).toEqual([1, 2, 3, 4, 5]);
  });

  it('gives every order of three about equally often', () => {
    const counts = new Map<string, number>();
    for (let n = 0; n < 6000; n++) {
      const key = shuffle(['a', 'b', 'c']).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    for (const count of counts.values()) expect(count).toBeGreaterThan(800);
  });
});

describe('memoryTag', () => {
  it('joins actions and feelings with " / " inside a memory tag', () => {
    const tag = memoryTag(
      [
        { action: 'baked bread', feeling: 'warm' },
        { action: 'lost the keys', feeling: null },
      ],
      sequence(0.99),
    );
    expect(tag).toMatch(/^<memory>.* \/ .* \/ .*<\/memory>$/);
    expect(tag.slice(8, -9).split(' / ').sort()).toEqual(['baked bread', 'lost the keys', 'warm']);
  });

  it('is empty when nothing was recalled', () => {
    expect(memoryTag([])).toBe('');
  });
});
