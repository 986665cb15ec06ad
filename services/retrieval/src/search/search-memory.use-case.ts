import { Injectable } from '@nestjs/common';
import type { MessageInitShape, SearchRequest, SearchResponseSchema } from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import {
  indexSearchSource,
  queryTimeOf,
  runSearch,
  SCAN_TIMEOUT,
  sqlSearchSource,
  termsStatement,
  type TermRow,
  type PlannedSearch,
  type QueryVector,
  type SearchOutcome,
  type TenantIndex,
} from '@engram/search';
import { TenantTransactions } from '@engram/store';
import { AccessRecorder } from '../access/access-recorder.service';
import { AnswerSynthesizerGateway } from './answer-synthesizer.gateway';
import { statementRunner, tenantStatementRunner } from '../statement-runner';
import { MemoryIndex } from './index/memory-index.service';
import { QueryVectorGateway } from './query-vector.gateway';
import { toSearchHit } from './search-hit';
import { searchOptions } from './search-request';

type SearchResponseInit = MessageInitShape<typeof SearchResponseSchema>;

/**
 * memory_search: one query over the tenant's messages, summaries and facts. Full text
 * (BM25 over each message and its neighbours), the query's vector, recency of use and
 * importance are fused (libs/search runSearch); summary and fact hits are followed by the
 * source messages they stand for; what was returned is recorded as accessed, off the read path.
 * Asked to, Gerty writes a short answer over the hits; without it the hits still come back.
 */
@Injectable()
export class SearchMemoryUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly queryVectors: QueryVectorGateway,
    private readonly access: AccessRecorder,
    private readonly synthesizer: AnswerSynthesizerGateway,
    private readonly memoryIndex: MemoryIndex,
  ) {}

  /**
   * A search, counted in flight while it runs (a tenant's index load steps aside for it).
   * `arrival` is the clock's time: what accesses are recorded at, and the moment asked as of
   * unless the request names one.
   */
  search(tenantId: string, request: SearchRequest, arrival = new Date()): Promise<SearchResponseInit> {
    return this.memoryIndex.foreground.run(() => this.answer(tenantId, request, arrival));
  }

  private async answer(tenantId: string, request: SearchRequest, arrival: Date): Promise<SearchResponseInit> {
    const started = performance.now();
    const search = searchOptions(tenantId, request);
    // Relative times in the query and recency are read from the moment asked as of.
    const now = search.scope.asOf ?? arrival;
    // Asked of Gerty while the terms are counted, or made here once they are (the built-in model).
    const vector = this.queryVectors.embed(search.query, tenantId);
    // Full text is ranked from the tenant's index once it is loaded; Postgres answers meanwhile,
    // for trigram and regex, for a metadata filter (the index holds none), and for a strong
    // search the index cannot bring up to the store.
    const index =
      search.mode === 'fulltext' && !search.scope.metadata ? this.memoryIndex.indexFor(tenantId) : null;
    const outcome: SearchOutcome = await this.searchIndex(index, tenantId, request, search, vector, now)
      .then((answered) => answered ?? this.searchStore(tenantId, search, vector, now))
      .catch(translateStoreError);
    if (!outcome.known) throw RpcError.notFound(`tenant ${tenantId} has no memory`, { tenantId });
    const hits = outcome.placed.map(toSearchHit);
    if (request.recordAccess ?? true)
      this.access.record(
        tenantId,
        hits.map((h) => `${h.kind}:${h.id}`),
        arrival,
      );
    const answered =
      search.synthesize && hits.length > 0
        ? await this.synthesizer.answer(tenantId, search.query, hits)
        : null;
    const degradedReason = [outcome.degradedReason, answered?.synthesis === null ? answered.reason : '']
      .filter(Boolean)
      .join('; ');
    return {
      hits,
      degraded: degradedReason !== '',
      degradedReason,
      ...(answered?.synthesis && { synthesis: answered.synthesis }),
      tookMs: performance.now() - started,
      answeredBy: outcome.path,
    };
  }

  /**
   * The search ranked from the tenant's index, or null when the index cannot answer (not loaded,
   * or behind a strong search's store). Its few reads (new query words, the items) stand alone:
   * each is one round trip as the tenant, without a transaction around them.
   */
  private async searchIndex(
    index: TenantIndex | null,
    tenantId: string,
    request: SearchRequest,
    search: PlannedSearch,
    vector: PromiseLike<QueryVector>,
    now: Date,
  ): Promise<SearchOutcome | null> {
    if (!index) return null;
    const run = tenantStatementRunner(this.transactions, tenantId);
    if (request.consistency === 'strong' && !(await this.memoryIndex.catchUp(index, run))) return null;
    return runSearch(indexSearchSource(index, run, this.memoryIndex.lexemes, now), search, vector, now);
  }

  /**
   * The search as Postgres runs it. Its first statement (the query's terms, and whether the
   * tenant exists) is read alone as the tenant in one round trip: a tenant that does not exist
   * is answered without opening a transaction (four round trips fewer); otherwise the rest runs
   * in the tenant's transaction with those terms.
   */
  private async searchStore(
    tenantId: string,
    search: PlannedSearch,
    vector: PromiseLike<QueryVector>,
    now: Date,
  ): Promise<SearchOutcome> {
    const terms = await tenantStatementRunner(
      this.transactions,
      tenantId,
    )<TermRow>(termsStatement(tenantId, queryTimeOf(search, now).text));
    if (!terms[0]?.known) return { known: false };
    return this.transactions.run(tenantId, (manager) =>
      runSearch(sqlSearchSource(statementRunner(manager), search.mode, terms), search, vector, now),
    );
  }
}

/** Postgres' verdicts on a pattern are the caller's to fix, and a scan that ran out of time says so. */
function translateStoreError(error: unknown): never {
  const code = (error as { code?: string }).code;
  const message = (error as { message?: string }).message ?? '';
  if (code === '2201B')
    throw RpcError.invalidArgument(`the regex is not valid: ${message}`, {
      fieldViolations: [{ field: 'query', description: `the regex is not valid: ${message}` }],
    });
  if (code === '57014')
    throw new RpcError(
      'DEADLINE_EXCEEDED',
      `the search took longer than ${SCAN_TIMEOUT}; narrow it with filters or a more specific pattern`,
    );
  throw error;
}
