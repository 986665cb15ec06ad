export {
  findQueryTime,
  TIME_WINDOW_SLACK_DAYS,
  type QueryWithTime,
  type TimeWindow,
} from './query/query-time';
export {
  BM25_B,
  BM25_K1,
  inverseDocumentFrequency,
  NEIGHBOUR_WEIGHTS,
  windowScore,
  type WindowPart,
} from './ranking/bm25';
export { candidateKey, ITEM_KINDS, type Candidate, type ItemKind } from './ranking/candidate';
export {
  importanceScore,
  RRF_K,
  semanticScore,
  SIGNAL_WEIGHTS,
  temporalScore,
  TIME_MATCH_WEIGHT,
} from './ranking/signals';
export {
  AUTHOR_MATCH,
  CONVERSATION_SPREAD,
  ROLE_MATCH,
  rankCandidates,
  reciprocalRankFusion,
  type Fusion,
  type QueryTerm,
  type RankedItem,
  type RankingInput,
  type Signals,
} from './ranking/rank-candidates';
export { chooseCandidateTerms, type CountedTerm } from './ranking/candidate-terms';
export { Params, scopePredicate, type SearchScope, type Statement } from './plan/search-scope';
export {
  CANDIDATE_BUDGET,
  candidatesStatement,
  DF_COUNT_CAP,
  expansionStatement,
  HNSW_EF_SEARCH,
  itemsStatement,
  MAX_QUERY_TERMS,
  NEIGHBOUR_SETTINGS,
  neighboursStatement,
  SCAN_TIMEOUT,
  settingsStatement,
  SEMANTIC_CANDIDATES,
  termFrequenciesStatement,
  termsStatement,
  type CandidatesInput,
  type SearchMode,
  EXACT_VECTOR_SCAN_LIMIT,
} from './plan/search-plan';
export type {
  CandidateRow,
  ExpansionRow,
  ItemRow,
  NeighbourRow,
  TermFrequencyRow,
  TermRow,
} from './plan/search-rows';
export {
  CONTEXT_SEEDS,
  EXPANSIONS_PER_HIT,
  queryTimeOf,
  runSearch,
  type PlacedItem,
  type PlannedSearch,
  type QueryVector,
  type SearchOutcome,
} from './plan/run-search';
export {
  sqlSearchSource,
  type SearchPath,
  type SearchSource,
  type StatementRunner,
} from './plan/search-source';
export type {
  AccessDoc,
  ConversationDoc,
  FactDoc,
  MessageDoc,
  SummaryDoc,
  SummarySource,
  TenantSnapshot,
  VectorDoc,
} from './memory-index/index-docs';
export { ItemTable, TenantIndex } from './memory-index/tenant-index';
export { indexSearchSource, scopeTest } from './memory-index/index-source';
export { LexemeCache, type QueryLexeme } from './memory-index/lexeme-cache';
export {
  decodeHalfvec,
  readCatalogue,
  readConversationMessages,
  readDerivedCounts,
  readStoreChanges,
  readStoreCounts,
  readDerivedIds,
  readConversationSizes,
  readTenantRows,
  type ItemSelection,
} from './memory-index/index-statements';
export { Foreground } from './memory-index/foreground';
export {
  TenantIndexes,
  type TenantCatalogueReader,
  type TenantIndexesOptions,
  type TenantReader,
} from './memory-index/tenant-indexes';
