import { inverseDocumentFrequency, windowScore } from './bm25';

describe('BM25 over a window', () => {
  it('gives rare terms more weight than common ones, never negative', () => {
    expect(inverseDocumentFrequency(1, 1000)).toBeGreaterThan(inverseDocumentFrequency(500, 1000));
    expect(inverseDocumentFrequency(1000, 1000)).toBeGreaterThan(0);
  });

  it('counts a neighbour’s words for less than the message’s own, and skips masked terms', () => {
    const own = windowScore([{ matched: 1, length: 10, weight: 1 }], [2], 0, 10);
    const fromNeighbour = windowScore(
      [
        { matched: 0, length: 10, weight: 1 },
        { matched: 1, length: 10, weight: 0.35 },
      ],
      [2],
      0,
      10,
    );
    expect(fromNeighbour).toBeGreaterThan(0);
    expect(fromNeighbour).toBeLessThan(own);
    expect(windowScore([{ matched: 1, length: 10, weight: 1 }], [2], 1, 10)).toBe(0);
  });
});
