import { findOverlapping, wordOverlap } from './word-overlap';

describe('wordOverlap', () => {
  it('is 1 when the existing fact already contains every word of the candidate', () => {
    expect(wordOverlap('User prefers dark mode', 'The user prefers dark mode in every editor')).toBe(1);
  });

  it('is the share of the candidate words that are known', () => {
    expect(wordOverlap('The user prefers dark mode in every editor', 'User prefers dark mode')).toBeCloseTo(
      4 / 8,
    );
  });

  it('ignores case, punctuation and repeated words', () => {
    expect(wordOverlap('Dark, dark MODE!', 'dark mode')).toBe(1);
  });

  it('works for scripts without spaces', () => {
    expect(wordOverlap('我喜欢咖啡', '我喜欢咖啡和茶')).toBe(1);
    expect(wordOverlap('我喜欢咖啡', '他住在北京')).toBeLessThan(0.5);
  });

  it('is 0 for a candidate without words', () => {
    expect(wordOverlap('...', 'anything')).toBe(0);
  });
});

describe('findOverlapping', () => {
  const existing = [
    { id: 1, content: 'The user lives in Lisbon' },
    { id: 2, content: 'The user prefers dark mode' },
  ];

  it('finds a fact overlapping by more than the threshold', () => {
    expect(findOverlapping('User prefers dark mode', existing, 0.7)?.id).toBe(2);
  });

  it('finds nothing when the overlap is at or below the threshold', () => {
    // 7 of 10 words known: exactly 70 %, which is not "more than 70 %".
    const candidate = 'The user lives in Lisbon with two cats and dogs';
    expect(wordOverlap(candidate, existing[0]!.content)).toBeCloseTo(0.5);
    expect(findOverlapping('user lives in lisbon and porto now with cats', existing, 0.7)).toBeUndefined();
    expect(findOverlapping('a b c d e f g h i j', [{ content: 'a b c d e f g' }], 0.7)).toBeUndefined();
    expect(findOverlapping('a b c d e f g h i j', [{ content: 'a b c d e f g h' }], 0.7)).toBeDefined();
  });
});
