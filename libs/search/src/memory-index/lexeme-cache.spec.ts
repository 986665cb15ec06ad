import type { Statement } from '../plan/search-scope';
import { LexemeCache } from './lexeme-cache';

/** Postgres' answers for the pieces this spec uses (ts_parse + english to_tsvector). */
const PARSED: Record<string, Array<[string, string]>> = {
  Caroline: [['caroline', 'carolin']],
  'researched?': [['researched', 'research']],
  research: [['research', 'research']],
  "don't": [['don', 'don']],
  the: [],
};

describe('LexemeCache', () => {
  it('groups words by lexeme in lexeme order and asks Postgres only for pieces it has not seen', async () => {
    const asked: string[][] = [];
    const run = async <T>(statement: Statement): Promise<T[]> => {
      const pieces = statement.values[0] as string[];
      asked.push(pieces);
      return pieces.flatMap((piece) =>
        (PARSED[piece] ?? []).map(([word, lexeme]) => ({ piece, word, lexeme })),
      ) as T[];
    };
    const cache = new LexemeCache();
    expect(
      await cache.termsOf("What did  Caroline research? researched? the don't", ['english'], run),
    ).toEqual([
      { lexeme: 'carolin', words: ['caroline'] },
      { lexeme: 'don', words: ['don'] },
      { lexeme: 'research', words: ['researched'] },
    ]);
    expect(await cache.termsOf('research Caroline', ['english'], run)).toEqual([
      { lexeme: 'carolin', words: ['caroline'] },
      { lexeme: 'research', words: ['research'] },
    ]);
    expect(asked).toEqual([
      ['What', 'did', 'Caroline', 'research?', 'researched?', 'the', "don't"],
      ['research'],
    ]);
  });

  it('parses a piece again for another set of languages, and stems it with each', async () => {
    const asked: unknown[][] = [];
    const run = async <T>(statement: Statement): Promise<T[]> => {
      asked.push(statement.values);
      const languages = statement.values[1] as string[];
      return languages.map((l) => ({
        piece: 'gatti',
        word: 'gatti',
        lexeme: l === 'italian' ? 'gatt' : 'gatti',
      })) as T[];
    };
    const cache = new LexemeCache();
    expect(await cache.termsOf('gatti', ['english'], run)).toEqual([{ lexeme: 'gatti', words: ['gatti'] }]);
    expect(await cache.termsOf('gatti', ['english', 'italian'], run)).toEqual([
      { lexeme: 'gatt', words: ['gatti'] },
      { lexeme: 'gatti', words: ['gatti'] },
    ]);
    expect(await cache.termsOf('gatti', ['english'], run)).toHaveLength(1);
    expect(asked).toEqual([
      [['gatti'], ['english']],
      [['gatti'], ['english', 'italian']],
    ]);
  });

  it('forgets the oldest pieces beyond its capacity', async () => {
    const run = async <T>(statement: Statement): Promise<T[]> => {
      void statement;
      return [] as T[];
    };
    const cache = new LexemeCache(2);
    await cache.termsOf('a b c', ['english'], run);
    expect(cache.size).toBe(2);
  });
});
