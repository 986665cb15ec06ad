import { messageLength } from './plausible-text';
import type { SeededRandom } from './seeded-random';

/** The message-length distributions a corpus can have: chat-short, or LongMemEval-like. */
export type ContentDistribution = 'short' | 'long';

export const CONTENT_DISTRIBUTIONS: readonly ContentDistribution[] = ['short', 'long'];

/** Log-normal parameters by role: median and mean in characters. */
interface LogNormal {
  readonly median: number;
  readonly mean: number;
}

/**
 * LongMemEval's assistant answers: median 430, mean ≈ 1,000 characters, the longest 76,560;
 * its user turns are shorter (questions, pasted snippets now and then).
 */
export const LONG_CONTENT: Readonly<Record<'user' | 'assistant', LogNormal>> & {
  readonly minChars: number;
  readonly maxChars: number;
} = {
  user: { median: 150, mean: 250 },
  assistant: { median: 430, mean: 1000 },
  minChars: 20,
  maxChars: 76_560,
};

/**
 * A message length in characters drawn from `distribution`: `short` is 50–600 skewed short
 * (chat), `long` a log-normal per role (LONG_CONTENT), clamped to [minChars, maxChars].
 */
export function contentLength(
  random: SeededRandom,
  role: 'user' | 'assistant',
  distribution: ContentDistribution,
): number {
  if (distribution === 'short') return messageLength(random, role);
  const { median, mean } = LONG_CONTENT[role];
  // median = e^mu, mean = e^(mu + sigma²/2)
  const mu = Math.log(median);
  const sigma = Math.sqrt(2 * Math.log(mean / median));
  const chars = Math.round(Math.exp(mu + sigma * standardNormal(random)));
  return Math.min(LONG_CONTENT.maxChars, Math.max(LONG_CONTENT.minChars, chars));
}

/** A standard normal variate (Box–Muller; two uniform draws). */
function standardNormal(random: SeededRandom): number {
  const u = 1 - random.next(); // (0, 1]: log(0) would be -Infinity
  const v = random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
