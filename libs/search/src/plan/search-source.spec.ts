import type { Statement } from './search-scope';
import { sqlSearchSource } from './search-source';
import type { TermRow } from './search-rows';

describe('sqlSearchSource', () => {
  const recording = () => {
    const statements: Statement[] = [];
    const run = async <T>(statement: Statement) => {
      statements.push(statement);
      return [] as T[];
    };
    return { statements, run };
  };

  it('reads the terms after the settings when not given them', async () => {
    const { statements, run } = recording();
    await sqlSearchSource(run, 'fulltext').terms('acme', 'cats');
    expect(statements.map((s) => s.text)).toEqual([
      expect.stringContaining('set_config'),
      expect.stringContaining('ts_parse'),
    ]);
    expect(statements[1]!.values).toEqual(['acme', 'cats']);
  });

  it('answers the terms it was given as they were read, after the same settings', async () => {
    const { statements, run } = recording();
    const read: TermRow[] = [
      { lexeme: 'cat', words: ['cats'], documents: '12', average_length: 20, known: true },
    ] as unknown as TermRow[];
    expect(await sqlSearchSource(run, 'fulltext', read).terms('acme', 'cats')).toEqual(read);
    expect(statements.map((s) => s.text)).toEqual([expect.stringContaining('set_config')]);
  });
});
