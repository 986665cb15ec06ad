import { performance } from 'node:perf_hooks';
import type { LocalEmbedder } from './local-embedder';

/**
 * Throughput measurement for the built-in embedder (for `npm run bench:embed` and
 * scripts/measure.ts): it embeds N short synthetic texts in batches on the calling thread —
 * one core — and reports texts/s. Nothing here asserts a number; callers report it.
 */

export interface SampleTextOptions {
  /** Words per text, inclusive (default 5 … 20). */
  minWords?: number;
  maxWords?: number;
  /** PRNG seed: the same seed gives the same texts (default 1). */
  seed?: number;
}

export interface ThroughputOptions extends SampleTextOptions {
  /** Texts to embed (default 50,000); ignored when `texts` is given. */
  count?: number;
  /** Texts per embed() call (default 64, a typical embedder batch). */
  batchSize?: number;
  /** Texts embedded first and not timed (default 2,000). */
  warmup?: number;
  /** Use these texts instead of generated ones. */
  texts?: readonly string[];
}

export interface ThroughputResult {
  texts: number;
  words: number;
  batchSize: number;
  seconds: number;
  textsPerSecond: number;
  wordsPerSecond: number;
}

/** Deterministic 32-bit PRNG (mulberry32) → [0, 1). */
function prng(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EXTRAS = ["don't", "it's", "I'm", "can't", 'e-mail', 'U.S.', 'getUserName', 'café'];

/**
 * `count` short texts shaped like chat turns: words drawn from the model's vocabulary with
 * Zipf-like frequencies (log-uniform rank over the 50,000 most frequent entries, so "the", "of",
 * punctuation dominate as in real text), a capital letter, punctuation attached to words, and
 * now and then a number, a contraction, an abbreviation, a camelCase identifier or an unknown
 * word — so the tokenizer's slower paths are exercised in realistic proportion.
 */
export function sampleTexts(
  model: Pick<LocalEmbedder, 'word' | 'vocabularySize'>,
  count: number,
  options: SampleTextOptions = {},
): string[] {
  const { minWords = 5, maxWords = 20, seed = 1 } = options;
  const random = prng(seed);
  const top = Math.min(50_000, model.vocabularySize);
  const logTop = Math.log(top);
  const out: string[] = [];
  for (let t = 0; t < count; t++) {
    const n = minWords + Math.floor(random() * (maxWords - minWords + 1));
    const words: string[] = [];
    while (words.length < n) {
      const r = random();
      let w: string;
      if (r < 0.03) w = String(Math.floor(random() * 5000));
      else if (r < 0.06) w = EXTRAS[Math.floor(random() * EXTRAS.length)];
      else if (r < 0.08) {
        w = '';
        const len = 4 + Math.floor(random() * 8);
        for (let i = 0; i < len; i++) w += String.fromCharCode(97 + Math.floor(random() * 26));
      } else {
        w = model.word(Math.min(top - 1, Math.floor(Math.exp(random() * logTop)) - 1));
        if (!/^[\p{L}\p{N}]/u.test(w)) {
          if (words.length > 0) words[words.length - 1] += w; // punctuation sticks to the previous word
          continue;
        }
      }
      words.push(w);
    }
    words[0] = words[0].charAt(0).toUpperCase() + words[0].slice(1);
    out.push(words.join(' ') + (random() < 0.2 ? '?' : '.'));
  }
  return out;
}

/** Embeds texts in batches on this thread and returns the rate. */
export function measureThroughput(
  embedder: Pick<LocalEmbedder, 'embed' | 'word' | 'vocabularySize'>,
  options: ThroughputOptions = {},
): ThroughputResult {
  const { count = 50_000, batchSize = 64, warmup = 2_000 } = options;
  const texts = options.texts ?? sampleTexts(embedder, count, options);
  const warm = options.texts
    ? texts.slice(0, warmup)
    : sampleTexts(embedder, warmup, { ...options, seed: (options.seed ?? 1) + 1 });
  for (let i = 0; i < warm.length; i += batchSize) embedder.embed(warm.slice(i, i + batchSize));
  let words = 0;
  for (const t of texts) words += t.split(/\s+/).filter(Boolean).length;
  const batches: (readonly string[])[] = [];
  for (let i = 0; i < texts.length; i += batchSize) batches.push(texts.slice(i, i + batchSize));
  const start = performance.now();
  let sink = 0;
  for (const batch of batches) sink += embedder.embed(batch).length;
  const seconds = (performance.now() - start) / 1000;
  if (sink !== texts.length) throw new Error('embed() returned the wrong number of vectors');
  return {
    texts: texts.length,
    words,
    batchSize,
    seconds,
    textsPerSecond: texts.length / seconds,
    wordsPerSecond: words / seconds,
  };
}
