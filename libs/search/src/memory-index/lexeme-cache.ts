import { countedToken, MAX_QUERY_TERMS } from '../plan/search-plan';
import type { StatementRunner } from '../plan/search-source';

/** A query term: its lexeme and the words of the query it came from. */
export interface QueryLexeme {
  readonly lexeme: string;
  readonly words: string[];
}

interface WordLexeme {
  readonly word: string;
  readonly lexeme: string;
}

/**
 * What Postgres' text-search configurations make of a query's words, remembered: the index's
 * documents are Postgres' own tsvectors, so query words must be stemmed by the same parser
 * and dictionaries, never by a look-alike. The query is cut at whitespace (the default parser
 * never makes a token across it) and each piece is parsed once per set of configurations (a
 * tenant's languages), then kept (the most recent `capacity` pieces).
 */
export class LexemeCache {
  private readonly pieces = new Map<string, readonly WordLexeme[]>();

  constructor(private readonly capacity = 100_000) {}

  /**
   * The query's terms as the terms statement gives them, each word stemmed with each of
   * `languages`: grouped by lexeme, the longest words' first, at most MAX_QUERY_TERMS, in lexeme
   * order. Unknown pieces cost one statement.
   */
  async termsOf(text: string, languages: readonly string[], run: StatementRunner): Promise<QueryLexeme[]> {
    const pieces = text.split(/\s+/).filter(Boolean);
    // A piece never holds whitespace: a newline parts the languages from it.
    const keyOf = (piece: string) => `${languages.join(' ')}\n${piece}`;
    const missing = [...new Set(pieces.filter((p) => !this.pieces.has(keyOf(p))))];
    if (missing.length > 0) await this.parse(missing, languages, keyOf, run);
    const words = new Map<string, Set<string>>();
    for (const piece of pieces) {
      for (const { word, lexeme } of this.pieces.get(keyOf(piece)) ?? []) {
        let set = words.get(lexeme);
        if (!set) words.set(lexeme, (set = new Set()));
        set.add(word);
      }
    }
    const shortest = (set: Set<string>) => Math.min(...[...set].map((w) => [...w].length));
    return [...words]
      .map(([lexeme, set]) => ({ lexeme, words: [...set].sort(byCodeUnits), shortest: shortest(set) }))
      .sort((a, b) => b.shortest - a.shortest || byCodeUnits(a.lexeme, b.lexeme))
      .slice(0, MAX_QUERY_TERMS)
      .sort((a, b) => byCodeUnits(a.lexeme, b.lexeme))
      .map(({ lexeme, words: w }) => ({ lexeme, words: w }));
  }

  get size(): number {
    return this.pieces.size;
  }

  private async parse(
    pieces: string[],
    languages: readonly string[],
    keyOf: (piece: string) => string,
    run: StatementRunner,
  ): Promise<void> {
    const rows = await run<{ piece: string; word: string; lexeme: string }>({
      text: `SELECT c.piece, lower(p.token) AS word, v.lexeme
               FROM unnest($1::text[]) AS c(piece)
               CROSS JOIN LATERAL ts_parse('default', c.piece) p
               CROSS JOIN unnest($2::regconfig[]) l
               CROSS JOIN LATERAL unnest(to_tsvector(l, p.token)) v
              WHERE ${countedToken('p.token', 'l')}`,
      values: [pieces, languages],
    });
    const parsed = new Map<string, WordLexeme[]>(pieces.map((p) => [p, []]));
    for (const r of rows) parsed.get(r.piece)?.push({ word: r.word, lexeme: r.lexeme });
    for (const [piece, lexemes] of parsed) {
      if (this.pieces.size >= this.capacity) this.pieces.delete(this.pieces.keys().next().value!);
      this.pieces.set(keyOf(piece), lexemes);
    }
  }
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
