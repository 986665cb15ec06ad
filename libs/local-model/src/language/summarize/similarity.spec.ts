import { cosine, lexRank, similarityMatrix, tfidfVectors } from './similarity';

describe('tfidfVectors / cosine', () => {
  it('gives unit vectors, 1 for identical documents and 0 for disjoint ones', () => {
    const [a, b, c] = tfidfVectors([
      ['deploy', 'fail'],
      ['deploy', 'fail'],
      ['lunch', 'pizza'],
    ]);
    expect(cosine(a, a)).toBeCloseTo(1);
    expect(cosine(a, b)).toBeCloseTo(1);
    expect(cosine(a, c)).toBe(0);
  });

  it('gives an empty vector to a document without terms', () => {
    expect(tfidfVectors([[]])[0].size).toBe(0);
  });
});

describe('similarityMatrix', () => {
  it('matches pairwise cosines and has a zero diagonal', () => {
    const vectors = tfidfVectors([['a', 'b'], ['b', 'c'], ['c', 'd'], ['x']]);
    const matrix = similarityMatrix(vectors);
    for (let i = 0; i < 4; i++) {
      expect(matrix[i][i]).toBe(0);
      for (let j = 0; j < 4; j++)
        if (i !== j) expect(matrix[i][j]).toBeCloseTo(cosine(vectors[i], vectors[j]));
    }
  });
});

describe('lexRank', () => {
  it('ranks the hub of a star above its leaves and averages 1', () => {
    const vectors = tfidfVectors([['a', 'b', 'c'], ['a'], ['b'], ['c'], ['z']]);
    const ranks = lexRank(similarityMatrix(vectors));
    expect(ranks[0]).toBeGreaterThan(ranks[1]);
    expect(ranks[1]).toBeGreaterThan(ranks[4]);
    expect(ranks.reduce((sum, value) => sum + value, 0) / ranks.length).toBeCloseTo(1);
  });

  it('is empty for no nodes', () => {
    expect(lexRank([])).toEqual([]);
  });
});
