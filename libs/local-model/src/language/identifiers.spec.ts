import { findIdentifiers, hasIdentifier } from './identifiers';

describe('findIdentifiers', () => {
  it.each([
    ['Fixed in #123 today', '#123'],
    ['see commit 9f3c2ab1 for details', '9f3c2ab1'],
    ['edit libs/store/src/index.ts please', 'libs/store/src/index.ts'],
    ['open package.json', 'package.json'],
    ['the max_connections setting', 'max_connections'],
    ['run memory-core-tools-build now', 'memory-core-tools-build'],
    ['upgrade to gpt-4o', 'gpt-4o'],
    ['call summarizeExtractive()', 'summarizeExtractive'],
    ['we use TypeScript', 'TypeScript'],
    ['docs at https://example.com/a?b=1.', 'https://example.com/a?b=1'],
    ['ping @ada about it', '@ada'],
    ['mail ada@example.com', 'ada@example.com'],
    ['the `weird thing` here', '`weird thing`'],
    ['ticket ENG-42 is open', 'ENG-42'],
    ['p95 was 136 ms', '136 ms'],
    ['costs $1,200 a month', '$1,200'],
    ['grew 12%', '12%'],
    ['pgvector 0.8.0', '0.8.0'],
  ])('finds the identifier in %j', (text, expected) => {
    expect(findIdentifiers(text)).toContain(expected);
  });

  it('finds nothing in plain prose, hyphenated English or short hex-like words', () => {
    expect(findIdentifiers('We talked about long-term plans and a well-known cafe.')).toEqual([]);
    expect(hasIdentifier('The deadline is near.')).toBe(false);
  });

  it('does not repeat a number inside a larger identifier', () => {
    expect(findIdentifiers('PR #482')).toEqual(['#482']);
  });
});
