import ts from 'typescript';
import { sourcesUnder, type ServiceSource } from './service-sources';

/**
 * A table's row type is defined once, in libs/store/src/rows (CONTRIBUTING.md, "Anatomy of a
 * service": Repositories); a repository that reads some of its columns types them as a `Pick<>`
 * of it, and a computed column as an intersection. So an interface or type alias named `…Row` in
 * services/ or libs/ (not a spec; not generated code) is declared there, or is listed below: a
 * query's result that is not a table's row, each with why it is kept under that name.
 */
const ROWS = 'libs/store/src/rows/';

/** Generated from proto/: its names are the messages'. */
const GENERATED = 'libs/contracts/src/gen/';

const SEARCH_STATEMENT =
  "a row of the search plan's statements (term statistics, candidates and items of messages, summaries and facts); libs/search is pure and imports no libs/store";
const INDEX_LOAD =
  "a row of the memory index's load statements (lexemes, times in microseconds); libs/search is pure and imports no libs/store";

/** By file, the query results named `…Row` and why each is one. */
const QUERY_RESULTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'services/retrieval/src/agents/agents.repository.ts': {
    AgentSummaryRow:
      "mem.rpc.agents.list's page: every agent named anywhere, agents LEFT JOINed (a Pick of AgentRow, null without a profile) and counts",
  },
  'services/retrieval/src/transcript/transcript-reader.repository.ts': {
    TranscriptRow: "a Pick of MessageRow and its time as Postgres spells it (a page cursor's key)",
  },
  'services/retrieval/src/transcript/summary-tree.repository.ts': {
    SummaryNodeRow: 'a Pick of SummaryRow and its sources by ordinal, aggregated from summary_sources',
  },
  'services/ingest/src/turns/transcript.repository.ts': {
    StoredMessageRow: "a Pick of MessageRow: a written message's natural key and id",
  },
  'services/retrieval/src/expand/expand.repository.ts': {
    LinkRow: "an expansion's hop (parent, kind, id) across summary_sources and facts",
  },
  'services/retrieval/src/erase/erasure.repository.ts': {
    ErasedRow: 'what engram_erase answers (its erased_* columns), not the erasures row',
  },
  'libs/search/src/plan/search-rows.ts': {
    TermRow: SEARCH_STATEMENT,
    TermFrequencyRow: SEARCH_STATEMENT,
    CandidateRow: SEARCH_STATEMENT,
    NeighbourRow: SEARCH_STATEMENT,
    ItemRow: SEARCH_STATEMENT,
    ExpansionRow: SEARCH_STATEMENT,
  },
  'libs/search/src/memory-index/index-statements.ts': {
    MessageLoadRow: INDEX_LOAD,
    SummaryLoadRow: INDEX_LOAD,
    FactLoadRow: INDEX_LOAD,
  },
  'libs/memory-core/src/vectors/sweep-marks.ts': {
    SweptRow:
      "a row the vector sweep read, as its mark's rule sees it (id, young, embedded); libs/memory-core is pure",
  },
};

interface RowDeclaration {
  readonly path: string;
  readonly name: string;
  /** `path:line`. */
  readonly where: string;
}

/** Every interface and type alias named `…Row` in the source, at any depth. */
function rowDeclarations({ path, text }: ServiceSource): RowDeclaration[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: RowDeclaration[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && /Row$/.test(node.name.text))
      found.push({
        path,
        name: node.name.text,
        where: `${path}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`,
      });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Whether the rule allows the declaration: in libs/store/src/rows, or a listed query result. */
const allowed = (d: RowDeclaration) =>
  d.path.startsWith(ROWS) || QUERY_RESULTS[d.path]?.[d.name] !== undefined;

describe('row types', () => {
  const declarations = sourcesUnder('libs', 'services')
    .filter((source) => !source.path.startsWith(GENERATED))
    .flatMap(rowDeclarations);

  it('finds the table rows in libs/store/src/rows', () => {
    const rows = declarations.filter((d) => d.path.startsWith(ROWS)).map((d) => d.name);
    expect(rows).toEqual(expect.arrayContaining(['FactRow', 'MessageRow', 'AgentRow', 'MemoryNodeRow']));
  });

  it('declares every …Row type in libs/store/src/rows, or lists it as a query result', () => {
    const misplaced = declarations
      .filter((d) => !allowed(d))
      .map(
        (d) =>
          `${d.where}: ${d.name} (a table's row goes into ${ROWS}<table>.row.ts; a query's result is a Pick<> of it, or listed in QUERY_RESULTS with why)`,
      );
    expect(misplaced).toEqual([]);
  });

  it('lists only query results still declared where it says', () => {
    const declared = new Set(declarations.map((d) => `${d.path} ${d.name}`));
    const stale = Object.entries(QUERY_RESULTS).flatMap(([path, names]) =>
      Object.keys(names)
        .map((name) => `${path} ${name}`)
        .filter((key) => !declared.has(key)),
    );
    expect(stale).toEqual([]);
  });

  it('catches a row type declared beside its repository, at any depth, and a listed name elsewhere', () => {
    const misplaced = (path: string, text: string) =>
      rowDeclarations({ path, text })
        .filter((d) => !allowed(d))
        .map((d) => d.name);
    expect(
      misplaced(
        'services/patrol/src/being/being-view.repository.ts',
        `export interface DiaryRow { day: string }
         type HistoryRow = Pick<NodeHistoryRow, 'step'>;
         function read() { interface LocalRow { id: string } }
         interface Diary { day: string }`,
      ),
    ).toEqual(['DiaryRow', 'HistoryRow', 'LocalRow']);
    expect(
      misplaced('services/patrol/src/x.repository.ts', 'interface AgentSummaryRow { agent: string }'),
    ).toEqual(['AgentSummaryRow']);
    expect(
      misplaced('libs/store/src/rows/diary.row.ts', 'export interface DiaryRow { day: string }'),
    ).toEqual([]);
  });
});
