import { SeededRandom } from '../corpus/seeded-random';
import { lexiconOf, SENTENCE_WORDS, ZipfText } from './zipf-text';

const vocabulary = (words: string[]) => ({
  vocabularySize: words.length,
  word: (row: number) => words[row]!,
});

describe('Zipf text', () => {
  it('takes plain words of the vocabulary, in frequency order', () => {
    const v = vocabulary([
      'the',
      ',',
      'of',
      "n't",
      '1990',
      'e-mail',
      'U.S.',
      'deploy',
      'café',
      'rock-n-roll',
    ]);
    expect(lexiconOf(v, 10)).toEqual(['the', 'of', 'e-mail', 'deploy']);
    expect(lexiconOf(v, 2)).toEqual(['the', 'of']);
  });

  const words = Array.from({ length: 5000 }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}${i}`);
  const text = new ZipfText(words, 1);

  it('writes sentences of 5–60 words, capitalised and punctuated, most of them short', () => {
    const random = new SeededRandom(3);
    const lengths: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const s = text.sentence(random);
      expect(s).toMatch(/^[A-Z][^ ]*( |, )/);
      expect(s).toMatch(/[.?!]$/);
      lengths.push(s.split(' ').length);
    }
    expect(Math.min(...lengths)).toBe(SENTENCE_WORDS.min);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(SENTENCE_WORDS.max);
    const sorted = [...lengths].sort((a, b) => a - b);
    expect(sorted[1000]).toBeGreaterThanOrEqual(10);
    expect(sorted[1000]).toBeLessThanOrEqual(14);
    expect(sorted[1990]).toBeGreaterThan(30);
  });

  it('draws words by frequency: the most frequent dominate, the tail still shows up', () => {
    const random = new SeededRandom(4);
    const counts = new Map<string, number>();
    for (let i = 0; i < 50_000; i++) {
      const w = text.word(random);
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
    expect(counts.get(words[0]!)! / 50_000).toBeGreaterThan(0.1); // 1 / H(5000) ≈ 0.11
    expect(counts.get(words[0]!)! / counts.get(words[1]!)!).toBeCloseTo(2, 0);
    expect(counts.size).toBeGreaterThan(3000);
  });

  it('mixes a topic in, and keeps function words out of content words', () => {
    const random = new SeededRandom(5);
    const topic = text.topic(random, 8, 0.5, 100);
    expect(topic.words).toHaveLength(8);
    expect(new Set(topic.words).size).toBe(8);
    expect(topic.words.every((w) => words.indexOf(w) >= 100)).toBe(true);
    const paragraph = text.paragraph(random, 20, topic).toLowerCase();
    const tokens = paragraph.split(/[ ,.?!]+/).filter(Boolean);
    const share = tokens.filter((t) => topic.words.includes(t)).length / tokens.length;
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.6);
  });

  it('is deterministic', () => {
    expect(text.paragraph(new SeededRandom(9), 4)).toEqual(text.paragraph(new SeededRandom(9), 4));
  });
});
