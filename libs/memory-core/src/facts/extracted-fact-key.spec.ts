import { extractedFactKey, normalizeFactContent } from './extracted-fact-key';

describe('extractedFactKey', () => {
  it('is the same for the same content however it is spaced or cased', () => {
    expect(extractedFactKey('helper', '12', 'Ada  loves hiking.')).toBe(
      extractedFactKey('helper', '12', ' ada loves HIKING. '),
    );
  });

  it('differs by turn and by agent', () => {
    const key = extractedFactKey('helper', '12', 'Ada loves hiking.');
    expect(extractedFactKey('helper', '13', 'Ada loves hiking.')).not.toBe(key);
    expect(extractedFactKey('other', '12', 'Ada loves hiking.')).not.toBe(key);
    expect(key.startsWith('extracted:helper:12:')).toBe(true);
  });

  it('normalises NFKC, case and whitespace', () => {
    expect(normalizeFactContent('  Ｆｏｏ\tBar ')).toBe('foo bar');
  });
});
