import type { ItemKind } from '../ranking/candidate';
import {
  candidatesStatement,
  expansionStatement,
  NEIGHBOUR_SETTINGS,
  neighboursStatement,
  searchItemsStatement,
  settingsStatement,
  termFrequenciesStatement,
  termsStatement,
  type CandidatesInput,
  type SearchMode,
} from './search-plan';
import type {
  CandidateRow,
  ExpansionRow,
  ItemRow,
  NeighbourRow,
  TermFrequencyRow,
  TermRow,
} from './search-rows';
import type { SearchScope, Statement } from './search-scope';

/** Runs one statement in the search's tenant transaction and returns its rows. */
export type StatementRunner = <T>(statement: Statement) => Promise<T[]>;

/**
 * Where a search reads what it ranks: each step of the plan (search-plan.ts says what each
 * answers) as rows of the same shape, whether Postgres computes them (sqlSearchSource) or the
 * tenant's in-memory index does (memory-index). runSearch ranks what either gives the same way.
 */
export interface SearchSource {
  /** Which source answered: "sql" or "index". */
  readonly path: SearchPath;
  terms(tenantId: string, text: string): Promise<TermRow[]>;
  frequencies(scope: SearchScope, lexemes: readonly string[]): Promise<TermFrequencyRow[]>;
  candidates(input: CandidatesInput): Promise<CandidateRow[]>;
  neighbours(
    scope: SearchScope,
    seeds: readonly string[],
    terms: readonly string[],
    vector: readonly number[] | null,
    model: string | null,
  ): Promise<NeighbourRow[]>;
  /** What summary and fact hits stand for, said by the scope's asOf (the other filters do not apply). */
  expansions(
    scope: SearchScope,
    summaryIds: readonly string[],
    factIds: readonly string[],
    terms: readonly string[],
  ): Promise<ExpansionRow[]>;
  /** What is returned, read from Postgres whichever source ranked it; a fact not in force (now, or at the scope's asOf) has no row. */
  items(scope: SearchScope, refs: Readonly<Record<ItemKind, readonly string[]>>): Promise<ItemRow[]>;
}

export type SearchPath = 'sql' | 'index';

/**
 * The plan as Postgres runs it, statement by statement, in a transaction confined to the tenant.
 * `terms`: the rows of the search's termsStatement when the caller read them already (to learn
 * whether the tenant exists before opening a transaction); they are answered as read.
 */
export function sqlSearchSource(
  run: StatementRunner,
  mode: SearchMode,
  terms?: readonly TermRow[],
): SearchSource {
  let settled: Promise<unknown> | null = null;
  const settle = () => (settled ??= run(settingsStatement(mode)));
  return {
    path: 'sql',
    terms: async (tenantId, text) => {
      await settle();
      return terms ? [...terms] : run<TermRow>(termsStatement(tenantId, text));
    },
    frequencies: (scope, lexemes) => run<TermFrequencyRow>(termFrequenciesStatement(scope, lexemes)),
    candidates: async (input) => {
      await settle();
      return run<CandidateRow>(candidatesStatement(input));
    },
    neighbours: async (scope, seeds, terms, vector, model) => {
      await run(NEIGHBOUR_SETTINGS);
      return run<NeighbourRow>(neighboursStatement(scope, seeds, terms, vector, model));
    },
    expansions: (scope, summaryIds, factIds, terms) =>
      run<ExpansionRow>(expansionStatement(scope.tenantId, summaryIds, factIds, terms, scope.asOf)),
    items: (scope, refs) => run<ItemRow>(searchItemsStatement(scope, refs)),
  };
}
