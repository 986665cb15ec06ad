import type { SeededRandom } from '../corpus/seeded-random';
import { ZipfSampler } from './zipf';

/** What a word list is read from: the built-in model's vocabulary, ordered by corpus frequency (row 0 = "the"). */
export interface FrequencyOrderedVocabulary {
  readonly vocabularySize: number;
  word(row: number): string;
}

const PLAIN_WORD = /^[a-z]+(?:-[a-z]+)?$/;

/**
 * The `size` most frequent plain words of a frequency-ordered vocabulary, in order: lower-case
 * letters (one inner hyphen allowed); punctuation, numbers, contraction fragments ("n't") and
 * other tokens are skipped.
 */
export function lexiconOf(vocabulary: FrequencyOrderedVocabulary, size: number): string[] {
  const words: string[] = [];
  for (let row = 0; row < vocabulary.vocabularySize && words.length < size; row++) {
    const word = vocabulary.word(row);
    if (PLAIN_WORD.test(word)) words.push(word);
  }
  return words;
}

/** Words a conversation keeps coming back to, and the share of its words drawn from them. */
export interface Topic {
  readonly words: readonly string[];
  readonly share: number;
}

/** A standard normal deviate (Box–Muller). */
export function gaussian(random: SeededRandom): number {
  const u = 1 - random.next(); // (0, 1]: log(0) never happens
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
}

export const SENTENCE_WORDS = { min: 5, max: 60, median: 12, spread: 0.55 } as const;

/**
 * Text whose words follow Zipf's law over a real frequency-ordered vocabulary: posting lists
 * as long (and as short) as in real English text, not a toy vocabulary's. Sentences of 5–60
 * words, log-normally distributed (median 12), capitalised, with an occasional comma and a
 * full stop, question or exclamation mark.
 */
export class ZipfText {
  private readonly sampler: ZipfSampler;

  constructor(
    readonly words: readonly string[],
    readonly exponent = 1,
  ) {
    if (words.length === 0) throw new Error('ZipfText needs at least one word');
    this.sampler = new ZipfSampler(words.length, exponent);
  }

  /** One word's frequency rank (0 = most frequent). */
  rank(random: SeededRandom): number {
    return this.sampler.sample(random);
  }

  word(random: SeededRandom): string {
    return this.words[this.sampler.sample(random)]!;
  }

  /** A word of rank ≥ minRank (no function words: a topic, a query term). */
  contentWord(random: SeededRandom, minRank: number): string {
    for (;;) {
      const rank = this.sampler.sample(random);
      if (rank >= minRank) return this.words[rank]!;
    }
  }

  /** A conversation's topic: `size` distinct words of rank ≥ minRank. */
  topic(random: SeededRandom, size: number, share: number, minRank = 150): Topic {
    const words = new Set<string>();
    for (let tries = 0; words.size < size && tries < size * 20; tries++)
      words.add(this.contentWord(random, minRank));
    return { words: [...words], share };
  }

  /** A sentence length in words. */
  sentenceLength(random: SeededRandom): number {
    const { min, max, median, spread } = SENTENCE_WORDS;
    const n = Math.round(Math.exp(Math.log(median) + spread * gaussian(random)));
    return Math.min(max, Math.max(min, n));
  }

  sentence(random: SeededRandom, topic?: Topic): string {
    const n = this.sentenceLength(random);
    let text = '';
    for (let i = 0; i < n; i++) {
      let word = topic && random.chance(topic.share) ? random.pick(topic.words) : this.word(random);
      if (word === 'i') word = 'I';
      if (i === 0) word = word[0]!.toUpperCase() + word.slice(1);
      else text += i < n - 1 && random.chance(0.05) ? ', ' : ' ';
      text += word;
    }
    const end = random.next();
    return text + (end < 0.85 ? '.' : end < 0.97 ? '?' : '!');
  }

  /** `sentences` sentences (at least one) joined by spaces. */
  paragraph(random: SeededRandom, sentences: number, topic?: Topic): string {
    const parts: string[] = [];
    for (let i = 0; i < Math.max(1, sentences); i++) parts.push(this.sentence(random, topic));
    return parts.join(' ');
  }
}
