import { classifyRoot, mostSimilar } from './clusters';
import { cosine, meanVector, parseVector, vectorLiteral } from './vectors';

describe('mostSimilar', () => {
  const candidates = [
    { id: 'a', vector: [1, 0] },
    { id: 'b', vector: [0.8, 0.6] },
    { id: 'c', vector: [0, 1] },
  ];

  it('answers the nearest at or above the threshold', () => {
    expect(mostSimilar([0.7, 0.7], candidates, 0.45)).toEqual({
      id: 'b',
      similarity: expect.closeTo(0.99, 2),
    });
  });

  it('answers null when none reaches it', () => {
    expect(mostSimilar([-1, -0.1], candidates, 0.45)).toBeNull();
  });
});

describe('classifyRoot', () => {
  it('takes the nearer prototype, private on a tie', () => {
    const prototypes = { business: [1, 0], private: [0, 1] };
    expect(classifyRoot([0.9, 0.1], prototypes)).toBe('business');
    expect(classifyRoot([0.1, 0.9], prototypes)).toBe('private');
    expect(classifyRoot([1, 1], prototypes)).toBe('private');
  });
});

describe('vectors', () => {
  it('cosine is 1 for parallel, 0 for orthogonal or zero vectors', () => {
    expect(cosine([1, 2], [2, 4])).toBeCloseTo(1);
    expect(cosine([1, 0], [0, 3])).toBe(0);
    expect(cosine([0, 0], [1, 1])).toBe(0);
  });

  it('refuses vectors of different widths', () => {
    expect(() => cosine([1], [1, 2])).toThrow('1 and 2 dimensions');
  });

  it('meanVector averages, null for none', () => {
    expect(
      meanVector([
        [1, 3],
        [3, 5],
      ]),
    ).toEqual([2, 4]);
    expect(meanVector([])).toBeNull();
  });

  it('round-trips pgvector text', () => {
    expect(parseVector(vectorLiteral([0.5, -1, 2]))).toEqual([0.5, -1, 2]);
  });
});
