import { Injectable } from '@nestjs/common';
import { timestampFromDate, type MessageInitShape, type SearchRequest, type SearchResponseSchema } from '@engram/contracts';
import { RpcError } from '@engram/messaging';
import {
  candidateKey,
  chooseCandidateTerms,
  findQueryTime,
  inverseDocumentFrequency,
  rankCandidates,
  type Candidate,
  type ItemKind,
  type QueryTerm,
  type RankedItem,
} from '@engram/search';
import { TenantTransactions, type EntityManager } from '@engram/store';
import { AccessRecorder } from '../access/access-recorder.service';
import { AnswerSynthesizerGateway } from './answer-synthesizer.gateway';
import { QueryVectorGateway, type QueryVector } from './query-vector.gateway';
import { validateSearch, type ValidSearch } from './search-request';
import { SearchRepository, type ExpansionRow, type ItemRow } from './search.repository';

type SearchResponseInit = MessageInitShape<typeof SearchResponseSchema>;
type Hit = NonNullable<SearchResponseInit['hits']>[number];

/** The best messages by a first ranking whose surrounding turns are read for context. */
const CONTEXT_SEEDS = 40;
/** Source messages shown under a summary or fact hit. */
const EXPANSIONS_PER_HIT = 3;
/** Regex and fuzzy modes read text row by row: they get a time limit. */
const SCAN_TIMEOUT = '3s';
/** Fuzzy mode: how similar (0–1) a stretch of text must be to the query; pg_trgm's 0.6 misses two typos in two words. */
const FUZZY_THRESHOLD = 0.3;

interface Placed {
  readonly kind: ItemKind;
  readonly id: string;
  readonly ranked: RankedItem | null;
  readonly expandedFrom: string;
}

/**
 * memory_search: one query over the tenant's messages, summaries and facts. Full text
 * (BM25 over each message and its neighbours), the query's vector, recency of use and
 * importance are fused; summary and fact hits are followed by the source messages they
 * stand for; what was returned is recorded as accessed, off the read path.
 * Asked to, Gerty writes a short answer over the hits; without it the hits still come back.
 */
@Injectable()
export class SearchMemoryUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly repository: SearchRepository,
    private readonly queryVectors: QueryVectorGateway,
    private readonly access: AccessRecorder,
    private readonly synthesizer: AnswerSynthesizerGateway,
  ) {}

  async search(tenantId: string, request: SearchRequest, now = new Date()): Promise<SearchResponseInit> {
    const started = performance.now();
    const search = validateSearch(tenantId, request);
    const timed = search.mode === 'fulltext' ? findQueryTime(search.query, now) : { text: search.query, window: null };
    const vectorPromise = this.queryVectors.embed(search.query, tenantId);
    const response = await this.transactions
      .run(tenantId, (manager) => this.run(manager, search, timed, vectorPromise, now))
      .catch(translateStoreError);
    if (request.recordAccess ?? true) this.access.record(tenantId, response.hits.map((h) => `${h.kind}:${h.id}`), now);
    const answered = search.synthesize && response.hits.length > 0 ? await this.synthesizer.answer(tenantId, search.query, response.hits) : null;
    const degradedReason = [response.degradedReason, answered?.synthesis === null ? answered.reason : ''].filter(Boolean).join('; ');
    return {
      hits: response.hits,
      degraded: degradedReason !== '',
      degradedReason,
      ...(answered?.synthesis && { synthesis: answered.synthesis }),
      tookMs: performance.now() - started,
    };
  }

  private async run(
    manager: EntityManager,
    search: ValidSearch,
    timed: ReturnType<typeof findQueryTime>,
    vectorPromise: Promise<QueryVector>,
    now: Date,
  ): Promise<{ hits: Hit[]; degraded: boolean; degradedReason: string }> {
    await this.repository.prepare(manager);
    if (search.mode !== 'fulltext') await manager.query(`SET LOCAL statement_timeout = '${SCAN_TIMEOUT}'`);
    if (search.mode === 'trigram') await manager.query(`SET LOCAL pg_trgm.word_similarity_threshold = ${FUZZY_THRESHOLD}`);
    const termRows = await this.repository.terms(manager, search.scope.tenantId, timed.text);
    if (!termRows[0]?.known) throw RpcError.notFound(`tenant ${search.scope.tenantId} has no memory`, { tenantId: search.scope.tenantId });
    const documents = Number(termRows[0].documents);
    const averageLength = Number(termRows[0].average_length) || 20;
    const counted = termRows.filter((r) => r.lexeme !== null).map((r) => ({ lexeme: r.lexeme!, words: r.words ?? [], df: r.df ?? 0 }));
    const terms: QueryTerm[] = counted.map((t) => ({ lexeme: t.lexeme, words: t.words, idf: inverseDocumentFrequency(t.df, documents) }));
    const termQueries = counted.map((t) => tsqueryOf(t.lexeme));
    const chosen = chooseCandidateTerms(counted);
    const match =
      search.mode === 'fulltext' ? (chosen.length > 0 ? chosen.map(tsqueryOf).join(' | ') : null) : search.query;

    const queryVector = await vectorPromise;
    const vector = queryVector.vector;
    const model = queryVector.vector ? queryVector.model : null;
    const first = await this.repository.candidates(manager, { scope: search.scope, mode: search.mode, terms: termQueries, match, vector, model });
    const ranking = { terms, averageLength, window: timed.window, fusion: search.fusion, now };

    // Context: the turns around the best messages lend them their words.
    const firstRanked = rankCandidates({ ...ranking, candidates: first });
    // (Regex and fuzzy matches stand alone: a pattern has no words to lend.)
    const seeds =
      search.mode === 'fulltext'
        ? firstRanked.filter((r) => r.candidate.kind === 'message').slice(0, CONTEXT_SEEDS).map((r) => r.candidate.id)
        : [];
    const around = await this.repository.neighbours(manager, search.scope, seeds, termQueries, vector, model);
    const candidates = withNeighbours(first, seeds, around);
    const ranked = rankCandidates({ ...ranking, candidates });

    const placed = await this.place(manager, search, ranked, termQueries, terms);
    const items = await this.repository.items(manager, search.scope.tenantId, refsByKind(placed));
    const hits = toHits(placed, items);

    const withVectors = candidates.some((c) => c.cosine !== null);
    const degradedReason =
      queryVector.vector === null
        ? `answered from full text only: ${queryVector.reason}`
        : candidates.length > 0 && !withVectors
        ? `answered from full text only: no stored vectors of model ${model} among the matches yet`
        : '';
    return { hits, degraded: degradedReason !== '', degradedReason };
  }

  /** The first top-k, each summary or fact hit followed by its most relevant source messages. */
  private async place(manager: EntityManager, search: ValidSearch, ranked: RankedItem[], termQueries: string[], terms: QueryTerm[]): Promise<Placed[]> {
    const head = ranked.slice(0, search.topK);
    const parents = search.expand ? head.filter((r) => r.candidate.kind !== 'message') : [];
    const expansions = await this.repository.expansions(
      manager,
      search.scope.tenantId,
      parents.filter((r) => r.candidate.kind === 'summary').map((r) => r.candidate.id),
      parents.filter((r) => r.candidate.kind === 'fact').map((r) => r.candidate.id),
      termQueries,
    );
    const byParent = groupExpansions(expansions, terms);
    const byKey = new Map(ranked.map((r) => [candidateKey(r.candidate.kind, r.candidate.id), r]));
    const placed: Placed[] = [];
    const seen = new Set<string>();
    const put = (kind: ItemKind, id: string, expandedFrom: string) => {
      const key = candidateKey(kind, id);
      if (seen.has(key) || placed.length >= search.topK) return;
      seen.add(key);
      placed.push({ kind, id, ranked: byKey.get(key) ?? null, expandedFrom });
    };
    for (const r of ranked) {
      if (placed.length >= search.topK) break;
      put(r.candidate.kind, r.candidate.id, '');
      if (r.candidate.kind === 'message' || !search.expand) continue;
      const ref = candidateKey(r.candidate.kind, r.candidate.id);
      for (const e of byParent.get(ref) ?? []) put(e.kind, e.id, ref);
    }
    return placed;
  }
}

/** A lexeme as a one-term tsquery (quoted: a lexeme may hold characters tsquery reads as operators). */
function tsqueryOf(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The first candidates, with each seed's neighbours attached and new neighbours added as candidates. */
function withNeighbours(first: Candidate[], seeds: string[], around: Array<{ seed: string; offset: number; candidate: Candidate }>): Candidate[] {
  const byKey = new Map(first.map((c) => [candidateKey(c.kind, c.id), c]));
  const slots = new Map<string, [string | null, string | null, string | null, string | null]>(seeds.map((s) => [s, [null, null, null, null]]));
  for (const n of around) {
    const slot = n.offset === -2 ? 0 : n.offset === -1 ? 1 : n.offset === 1 ? 2 : 3;
    slots.get(n.seed)![slot] = n.candidate.id;
    const key = candidateKey('message', n.candidate.id);
    if (!byKey.has(key)) byKey.set(key, n.candidate);
  }
  return [...byKey.values()].map((c) => (c.kind === 'message' && slots.has(c.id) ? { ...c, neighbours: slots.get(c.id)! } : c));
}

function groupExpansions(rows: ExpansionRow[], terms: QueryTerm[]): Map<string, Array<{ kind: ItemKind; id: string }>> {
  const weight = (matched: number) => terms.reduce((sum, t, i) => (matched & (1 << i) ? sum + t.idf : sum), 0);
  const groups = new Map<string, ExpansionRow[]>();
  for (const row of rows) {
    const ref = `${row.parent_kind}:${row.parent_id}`;
    groups.set(ref, [...(groups.get(ref) ?? []), row]);
  }
  return new Map(
    [...groups].map(([ref, group]) => {
      const children = group.filter((r) => r.kind === 'summary' && r.level === 1).slice(0, 2);
      const messages = group
        .filter((r) => r.kind === 'message')
        .sort((a, b) => weight(b.matched) - weight(a.matched) || a.created_at.getTime() - b.created_at.getTime())
        .slice(0, EXPANSIONS_PER_HIT);
      return [ref, [...children, ...messages].map((r) => ({ kind: r.kind, id: String(r.id) }))];
    }),
  );
}

function refsByKind(placed: Placed[]): Record<ItemKind, string[]> {
  const refs: Record<ItemKind, string[]> = { message: [], summary: [], fact: [] };
  for (const p of placed) refs[p.kind].push(p.id);
  return refs;
}

function toHits(placed: Placed[], items: ItemRow[]): Hit[] {
  const byKey = new Map(items.map((i) => [candidateKey(i.kind, String(i.id)), i]));
  return placed.flatMap((p): Hit[] => {
    const item = byKey.get(candidateKey(p.kind, p.id));
    if (!item) return [];
    const s = p.ranked?.signals;
    const accessed = p.ranked?.candidate.lastAccessedAt;
    return [
      {
        id: p.id,
        kind: p.kind,
        content: item.content,
        score: s?.fused ?? 0,
        signals: s ? { fulltext: s.fulltext, semantic: s.semantic, temporal: s.temporal, importance: s.importance, timeMatch: s.timeMatch, fused: s.fused } : {},
        createdAt: timestampFromDate(item.created_at),
        ...(accessed && { lastAccessedAt: timestampFromDate(accessed) }),
        provenance: {
          agent: item.agent,
          conversationId: item.conversation_id ?? '',
          channel: item.channel ?? '',
          role: item.role ?? '',
          author: item.author ?? '',
          depth: item.depth ?? 0,
          sourceMessageIds: (item.source_message_ids ?? []).map(String),
        },
        expandedFrom: p.expandedFrom,
      },
    ];
  });
}

/** Postgres' verdicts on a pattern are the caller's to fix, and a scan that ran out of time says so. */
function translateStoreError(error: unknown): never {
  const code = (error as { code?: string }).code;
  const message = (error as { message?: string }).message ?? '';
  if (code === '2201B') throw RpcError.invalidArgument(`the regex is not valid: ${message}`, { field: 'query' });
  if (code === '57014') throw new RpcError('DEADLINE_EXCEEDED', `the search took longer than ${SCAN_TIMEOUT}; narrow it with filters or a more specific pattern`);
  throw error;
}
