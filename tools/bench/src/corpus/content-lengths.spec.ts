import { contentLength, LONG_CONTENT } from './content-lengths';
import { SeededRandom } from './seeded-random';

const draw = (seed: number, n: number, role: 'user' | 'assistant', distribution: 'short' | 'long') => {
  const random = new SeededRandom(seed);
  return Array.from({ length: n }, () => contentLength(random, role, distribution));
};

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
// Math.max(...xs) overflows the stack at 200,000 arguments.
const max = (xs: number[]) => xs.reduce((a, b) => Math.max(a, b));
const min = (xs: number[]) => xs.reduce((a, b) => Math.min(a, b));

describe('contentLength', () => {
  it('gives the same lengths for the same seed', () => {
    expect(draw(7, 1000, 'assistant', 'long')).toEqual(draw(7, 1000, 'assistant', 'long'));
    expect(draw(7, 1000, 'assistant', 'long')).not.toEqual(draw(8, 1000, 'assistant', 'long'));
  });

  it('long assistant answers have LongMemEval’s median (≈ 430) and mean (≈ 1,000)', () => {
    const lengths = draw(42, 200_000, 'assistant', 'long');
    expect(median(lengths)).toBeGreaterThan(410);
    expect(median(lengths)).toBeLessThan(450);
    expect(mean(lengths)).toBeGreaterThan(930);
    expect(mean(lengths)).toBeLessThan(1070);
  });

  it('long lengths stay within the cap, with a long tail', () => {
    const lengths = draw(42, 200_000, 'assistant', 'long');
    expect(max(lengths)).toBeLessThanOrEqual(LONG_CONTENT.maxChars);
    expect(min(lengths)).toBeGreaterThanOrEqual(LONG_CONTENT.minChars);
    expect(lengths.filter((n) => n > 10_000).length).toBeGreaterThan(100);
  });

  it('long user turns are shorter than the answers', () => {
    const users = draw(42, 50_000, 'user', 'long');
    expect(median(users)).toBeGreaterThan(135);
    expect(median(users)).toBeLessThan(165);
    expect(mean(users)).toBeLessThan(mean(draw(42, 50_000, 'assistant', 'long')) / 2);
  });

  it('short keeps the chat corpus: 50–600 characters', () => {
    const lengths = draw(42, 10_000, 'assistant', 'short');
    expect(min(lengths)).toBeGreaterThanOrEqual(50);
    expect(max(lengths)).toBeLessThanOrEqual(600);
  });
});
