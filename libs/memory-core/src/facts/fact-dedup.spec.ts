import { anyWordQuery, findDuplicateFact, type OpenFact } from './fact-dedup';

describe('anyWordQuery', () => {
  it('ORs the distinct, case-folded words of every candidate', () => {
    expect(anyWordQuery(['User prefers dark mode', 'dark MODE, again'])).toBe(
      `'user' | 'prefers' | 'dark' | 'mode' | 'again'`,
    );
  });

  it('keeps only letters and digits, so quotes or operators cannot break the query', () => {
    expect(anyWordQuery([`it's O'Brien's & | ! (x) 42`])).toBe(`'its' | 'obriens' | 'x' | '42'`);
  });

  it('is null when there is no word at all', () => {
    expect(anyWordQuery(['... !!', ''])).toBeNull();
    expect(anyWordQuery([])).toBeNull();
  });
});

describe('findDuplicateFact', () => {
  const statedAt = new Date('2026-04-01T00:00:00Z');
  const fact = (id: string, content: string, expiresAt: string | null): OpenFact => ({
    id,
    content,
    expiresAt: expiresAt === null ? null : new Date(expiresAt),
  });

  it('finds an open fact that already holds more than the threshold of the words', () => {
    const open = [
      fact('1', 'The user lives in Lisbon', null),
      fact('2', 'The user prefers dark mode in the editor', null),
    ];
    expect(findDuplicateFact('User prefers dark mode', statedAt, open, 0.7)?.id).toBe('2');
  });

  it('ignores a fact that had expired when the candidate was stated', () => {
    const open = [fact('1', 'The user prefers dark mode', '2026-03-31T23:59:59Z')];
    expect(findDuplicateFact('User prefers dark mode', statedAt, open, 0.7)).toBeUndefined();
    expect(findDuplicateFact('User prefers dark mode', new Date('2026-03-01T00:00:00Z'), open, 0.7)?.id).toBe(
      '1',
    );
  });

  it('finds nothing at or below the threshold', () => {
    const open = [fact('1', 'a b c d e f g', null)];
    expect(findDuplicateFact('a b c d e f g h i j', statedAt, open, 0.7)).toBeUndefined();
  });
});
