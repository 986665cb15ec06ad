import type { SeededRandom } from '../corpus/seeded-random';

/**
 * Zipf–Mandelbrot weights: w(k) ∝ 1 / (k + 1 + offset)^exponent for ranks k = 0 … n−1,
 * normalised to sum to 1. exponent ≈ 1 is how word frequencies fall off in English text.
 */
export function zipfWeights(n: number, exponent: number, offset = 0): Float64Array {
  if (!Number.isInteger(n) || n < 1) throw new Error(`zipfWeights: n must be a positive integer, got ${n}`);
  const weights = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) sum += weights[k] = 1 / (k + 1 + offset) ** exponent;
  for (let k = 0; k < n; k++) weights[k]! /= sum;
  return weights;
}

/**
 * Draws ranks 0 … n−1 with Zipf–Mandelbrot probabilities (rank 0 the most likely), by inverting
 * the cumulative distribution with a binary search: O(log n) per draw, exact, deterministic
 * for a given SeededRandom.
 */
export class ZipfSampler {
  private readonly cdf: Float64Array;

  constructor(
    readonly n: number,
    readonly exponent = 1,
    readonly offset = 0,
  ) {
    const weights = zipfWeights(n, exponent, offset);
    this.cdf = new Float64Array(n);
    let acc = 0;
    for (let k = 0; k < n; k++) this.cdf[k] = acc += weights[k]!;
    this.cdf[n - 1] = 1; // no rounding gap at the top
  }

  /** P(rank = k). */
  probability(k: number): number {
    return k < 0 || k >= this.n ? 0 : this.cdf[k]! - (k === 0 ? 0 : this.cdf[k - 1]!);
  }

  /** One rank. */
  sample(random: SeededRandom): number {
    const x = random.next();
    const cdf = this.cdf;
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! <= x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
