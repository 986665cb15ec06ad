import { isEmittable, normalizeText, tokenStrings } from './tokenizer';

/** A stand-in vocabulary shaped like wink's: [a-z0-9-] words, no apostrophes, no numerals, no single letters. */
const WORDS = [
  'we',
  'can',
  'not',
  'go',
  'it',
  'is',
  'three',
  'twenty',
  'e-mail',
  'the',
  'us',
  'office',
  'do',
  'think',
  'will',
  'are',
  'would',
  'have',
  'am',
  'get',
  'user',
  'name',
  'cafe',
  'naive',
  'co-founder',
  'state',
  'of',
  'art',
  'www',
  'google',
  'com',
  'rock',
  'roll',
  'obrien',
  '$',
  '%',
  'eg',
  'json',
  'parse',
  'they',
  'you',
  'shall',
  'she',
  'mp3',
  'html',
];
const index = new Map(WORDS.map((w, i) => [w, i]));
const lookup = (t: string): number => index.get(t) ?? -1;
const tokens = (text: string): string[] => tokenStrings(text, lookup);

describe('tokenizer', () => {
  it('lower-cases and drops punctuation other than currency and percent signs', () => {
    expect(tokens('We CAN go!!! (it is $3, 20%)')).toEqual([
      'we',
      'can',
      'go',
      'it',
      'is',
      '$',
      'three',
      'twenty',
      '%',
    ]);
    expect(tokens(' ... —?! "" ')).toEqual([]);
  });

  it('expands contractions into the words GloVe saw', () => {
    expect(tokens("We can't, it won't, she isn't")).toEqual([
      'we',
      'can',
      'not',
      'it',
      'will',
      'not',
      'she',
      'is',
      'not',
    ]);
    expect(tokens("They're, you'll, we'd, we've, I'm, it's")).toEqual([
      'they',
      'are',
      'you',
      'will',
      'we',
      'would',
      'we',
      'have',
      'am',
      'it',
    ]);
    expect(tokens('We don’t think')).toEqual(['we', 'do', 'not', 'think']);
    expect(tokens("O'Brien rock'n'roll")).toEqual(['obrien', 'rock', 'roll']);
  });

  it('keeps hyphenated words it knows and splits the others', () => {
    expect(tokens('e-mail the co-founder')).toEqual(['e-mail', 'the', 'co-founder']);
    expect(tokens('state-of-the-art')).toEqual(['state', 'of', 'the', 'art']);
  });

  it('joins dotted abbreviations and splits other dotted runs', () => {
    expect(tokens('the U.S. office, e.g. www.google.com')).toEqual([
      'the',
      'us',
      'office',
      'eg',
      'www',
      'google',
      'com',
    ]);
  });

  it('maps small numbers to words and keeps other numbers whole, without thousands separators', () => {
    expect(tokens('3 20 21 1,000 3.14 2024')).toEqual(['three', 'twenty', '21', '1000', '3.14', '2024']);
  });

  it('splits unknown camelCase identifiers at their humps', () => {
    expect(tokens('getUserName JSONParse')).toEqual(['get', 'user', 'name', 'json', 'parse']);
    expect(tokens('MP3 HTML')).toEqual(['mp3', 'html']);
  });

  it('removes Latin accents and keeps other scripts as unknown tokens', () => {
    expect(tokens('Café naïve')).toEqual(['cafe', 'naive']);
    expect(normalizeText('plain ascii')).toBe('plain ascii');
    expect(tokens('東京タワー')).toEqual(['東京タワー']);
  });

  it('skips single ASCII letters and passes other unknown words through, capped in length', () => {
    expect(tokens('a b c zorblax')).toEqual(['zorblax']);
    const long = 'x'.repeat(100);
    expect(tokens(long)).toEqual(['x'.repeat(48)]);
  });

  it('reports which vocabulary entries a text can produce', () => {
    expect(isEmittable('coffee')).toBe(true);
    expect(isEmittable('$')).toBe(true);
    expect(isEmittable(',')).toBe(false);
    expect(isEmittable('"')).toBe(false);
  });
});
