import { SeededRandom } from '../corpus/seeded-random';
import { ZipfSampler, zipfWeights } from './zipf';

describe('Zipf sampling', () => {
  it('weights fall off as 1 / rank^s and sum to 1', () => {
    const w = zipfWeights(1000, 1);
    expect(w.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(w[0]! / w[1]!).toBeCloseTo(2, 12);
    expect(w[0]! / w[9]!).toBeCloseTo(10, 12);
    const shifted = zipfWeights(10, 2, 3);
    expect(shifted[0]! / shifted[1]!).toBeCloseTo(25 / 16, 12); // (1 + 1 + 3)² / (0 + 1 + 3)²
  });

  it('draws ranks with those frequencies', () => {
    const sampler = new ZipfSampler(50_000, 1);
    const random = new SeededRandom(1);
    const counts = new Map<number, number>();
    const n = 200_000;
    for (let i = 0; i < n; i++) {
      const rank = sampler.sample(random);
      counts.set(rank, (counts.get(rank) ?? 0) + 1);
    }
    for (const rank of [0, 1, 9, 99])
      expect((counts.get(rank) ?? 0) / n).toBeCloseTo(sampler.probability(rank), 2);
    // A long tail: many distinct ranks, the rarest drawn too.
    expect(counts.size).toBeGreaterThan(20_000);
    expect(Math.max(...counts.keys())).toBeGreaterThan(45_000);
    expect(Math.min(...counts.keys())).toBe(0);
  });

  it('is deterministic and stays in range', () => {
    const a = new ZipfSampler(7, 1.2);
    const draws = (seed: number) => {
      const random = new SeededRandom(seed);
      return Array.from({ length: 500 }, () => a.sample(random));
    };
    expect(draws(5)).toEqual(draws(5));
    expect(draws(5).every((r) => r >= 0 && r < 7)).toBe(true);
    expect(a.probability(-1)).toBe(0);
    expect(a.probability(7)).toBe(0);
  });
});
