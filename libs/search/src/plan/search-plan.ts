import { throughMillisecond, type SEARCH_MODES } from '@engram/contracts';
import { DEFAULT_TEXT_SEARCH, factInForce, factInForceAsOf } from '@engram/memory-core';
import type { ItemKind } from '../ranking/candidate';
import {
  Params,
  rowsById,
  scopePredicate,
  tenantBesideIds,
  type SearchScope,
  type Statement,
} from './search-scope';

/**
 * The SQL of a search, one statement per round trip, each confined to the tenant
 * (explicitly, so the composite (tenant_id, …) indexes serve it, and by RLS); run-search.ts
 * runs them in this order:
 *
 *  settings     transaction-local planner settings (no JIT, no parallel workers, HNSW);
 *  terms        the query's stemmed terms, the words they came from, the tenant's size and
 *               average message length;
 *  frequencies  how many of the tenant's messages contain each term, and how many of those
 *               pass the filters (counted up to a cap: beyond it a term says little anyway);
 *  candidates   messages, summaries and facts that contain one of the query's rarer terms
 *               (a bounded set: common terms only score what rare terms found), plus the
 *               nearest vectors, each with which terms it contains and its cosine;
 *  neighbours   the two turns before and after the best messages, for context;
 *  expansions   the sources of summary and fact hits, to follow them;
 *  items        what is returned, with content and provenance.
 */

/** At most this many query terms count (one bit each). */
export const MAX_QUERY_TERMS = 16;
/** Document frequencies are counted up to here. */
export const DF_COUNT_CAP = 5000;
/** Candidate terms are taken rarest first while their messages add up to at most this. */
export const CANDIDATE_BUDGET = 1000;
/** Nearest vectors taken as candidates, per kind. */
export const SEMANTIC_CANDIDATES = 40;
/** hnsw.ef_search for the nearest-vector scan (the graph is light: m 8, ef_construction 24). */
export const HNSW_EF_SEARCH = 100;
/**
 * Up to about this many vectors of a kind, a tenant's nearest ones are found exactly (a scan of
 * its own rows in its partition); beyond it, through its partition's HNSW graph. A scan costs
 * about a microsecond a vector and is exact; the graph costs about the same whatever the size.
 */
export const EXACT_VECTOR_SCAN_LIMIT = 5_000;
/** Summaries and facts per message, roughly: how many vectors of each kind a tenant of n messages holds. */
const VECTORS_PER_MESSAGE: Record<ItemKind, number> = { message: 1, summary: 0.06, fact: 0.02 };

export type SearchMode = (typeof SEARCH_MODES)[number];

/** Each item kind's table and the time its rows are dated by. */
export const ITEM_TABLES: Record<ItemKind, { table: string; time: string }> = {
  message: { table: 'messages', time: 'created_at' },
  summary: { table: 'summaries', time: 'latest_at' },
  fact: { table: 'facts', time: 'valid_from' },
};

/** Facts in force (now, or at the scope's asOf); messages and summaries always are. */
function alivePredicate(kind: ItemKind, scope: SearchScope, params: Params): string {
  if (kind !== 'fact') return 'true';
  return scope.asOf
    ? factInForceAsOf('x', `${params.add(throughMillisecond(scope.asOf))}::timestamptz`)
    : factInForce('x');
}

/**
 * Whether a query token stemmed with configuration `language` counts: not when the default
 * configuration (English) stops it. Other configurations keep "you" or "can", which are then
 * rare lexemes of a tenant's few texts in those languages (or of English text the detector
 * misread), with an idf to match. Measured on LongMemEval-S (one tenant, 6 of 2,909
 * conversations not English): 4 questions' best answer rank moved without this, 2 with it.
 */
export function countedToken(token: string, language: string): string {
  return `(${language} = '${DEFAULT_TEXT_SEARCH}'::regconfig OR to_tsvector('${DEFAULT_TEXT_SEARCH}', ${token}) <> '')`;
}

/**
 * The query's stemmed terms (with the words they came from), the tenant's size, and whether the
 * tenant exists; the query is parsed only for a tenant that does (for one that does not, one row).
 * Each word is stemmed with every configuration the tenant's items were indexed with (its
 * `languages`), so it finds an Italian message by the Italian stem and an English one by the English.
 */
export function termsStatement(tenantId: string, query: string): Statement {
  return {
    text: `
      WITH tenant AS (
        SELECT EXISTS (SELECT 1 FROM tenants WHERE tenant_id = $1) AS known,
               (SELECT languages FROM tenants WHERE tenant_id = $1) AS languages
      ), words AS (
        SELECT lower(p.token) AS word, v.lexeme
          FROM tenant, ts_parse('default', $2) p
          CROSS JOIN unnest(tenant.languages) l
          CROSS JOIN LATERAL unnest(to_tsvector(l, p.token)) v
         WHERE tenant.known AND ${countedToken('p.token', 'l')}
      ), terms AS (
        SELECT lexeme, array_agg(DISTINCT word) AS words FROM words GROUP BY lexeme ORDER BY min(length(word)) DESC, lexeme LIMIT ${MAX_QUERY_TERMS}
      ), size AS (
        SELECT coalesce(sum(message_count), 0)::bigint AS documents,
               coalesce(sum(token_estimate)::float8 / nullif(sum(message_count), 0), 20) AS average_length
          FROM conversations WHERE tenant_id = $1
      )
      SELECT t.lexeme, t.words, size.documents, size.average_length, tenant.known
        FROM tenant, size LEFT JOIN terms t ON true
       ORDER BY t.lexeme`,
    values: [tenantId, query],
  };
}

/**
 * How many of the tenant's messages contain each term (`df`), and how many of those pass the
 * request's filters (`scoped_df`), each counted up to DF_COUNT_CAP. One row per term, in order
 * (`term` = its index). Each term is its own parameter, so the planner sees its value and
 * reads the (tenant_id, tsv) GIN index for it.
 */
export function termFrequenciesStatement(scope: SearchScope, lexemes: readonly string[]): Statement {
  const params = new Params();
  const tenant = params.add(scope.tenantId);
  const scoped = scopePredicate('message', 'm', scope, params);
  const count = (term: string, predicate: string) => `(SELECT count(*) FROM (SELECT 1 FROM messages m
      WHERE m.tenant_id = ${tenant} AND m.tsv @@ ${term}::tsquery AND ${predicate} LIMIT ${DF_COUNT_CAP}) c)::int`;
  const rows = lexemes.map((lexeme, i) => {
    const term = params.add(tsqueryOf(lexeme));
    return `SELECT ${i} AS term, ${count(term, 'true')} AS df, ${scoped === 'true' ? 'NULL::int' : count(term, scoped)} AS scoped_df`;
  });
  return { text: rows.join('\nUNION ALL\n'), values: params.values };
}

/** Columns every candidate row has, whatever its kind. */
function candidateColumns(
  kind: ItemKind,
  tenantParam: string,
  termsParam: string,
  vectorParam: string | null,
  modelParam: string | null,
): string {
  const x = 'x';
  const matched = `(SELECT coalesce(sum(1 << (i - 1)), 0) FROM generate_subscripts(${termsParam}::tsquery[], 1) i WHERE ${x}.tsv @@ (${termsParam}::tsquery[])[i])::int`;
  // (The tenant, though RLS implies it, lets the planner go straight to its partition.)
  const cosine =
    vectorParam && modelParam
      ? `(SELECT 1 - (e.embedding <=> ${vectorParam}::halfvec) FROM embeddings e
           WHERE e.tenant_id = ${tenantParam} AND e.item_kind = '${kind}' AND e.item_id = ${x}.id AND e.model = ${modelParam})`
      : 'NULL::float8';
  return `'${kind}' AS kind, ${x}.id::text AS id, ${x}.conversation_id::text AS conversation_id,
          ${kind === 'message' ? `${x}.role` : 'NULL::text'} AS role, ${kind === 'message' ? `${x}.author` : 'NULL::text'} AS author,
          ${x}.${ITEM_TABLES[kind].time} AS created_at,
          ${kind === 'fact' ? `greatest(1, length(${x}.content) / 4)` : `${x}.token_estimate`} AS length, ${matched} AS matched, ${cosine} AS cosine,
          ${kind === 'message' ? `right(rtrim(${x}.content), 1) = '?'` : 'false'} AS asks,
          ${kind === 'fact' ? `${x}.importance` : 'NULL::int'} AS importance,
          a.access_count, a.last_accessed_at`;
}

export interface CandidatesInput {
  readonly scope: SearchScope;
  readonly mode: SearchMode;
  /** The query's lexemes, in term order (bit i = terms[i]). */
  readonly terms: readonly string[];
  /** Full text: the lexemes that pick candidates (an item containing any of them). */
  readonly chosen: readonly string[];
  /** Trigram: the query text; regex: the pattern; full text: unused. */
  readonly pattern: string | null;
  readonly vector: readonly number[] | null;
  readonly model: string | null;
  /** How many messages the tenant holds: small memories are scanned exactly for the nearest vectors. */
  readonly documents: number;
}

export function candidatesStatement(input: CandidatesInput): Statement {
  const params = new Params();
  const tenant = params.add(input.scope.tenantId);
  const terms = params.add(input.terms.map(tsqueryOf));
  const vector = input.vector ? params.add(`[${input.vector.join(',')}]`) : null;
  const model = input.vector ? params.add(input.model) : null;
  const matchText =
    input.mode === 'fulltext'
      ? input.chosen.length > 0
        ? input.chosen.map(tsqueryOf).join(' | ')
        : null
      : input.pattern;
  const match = matchText === null ? null : params.add(matchText);
  const parts: string[] = [];
  for (const kind of input.scope.kinds) {
    const { table } = ITEM_TABLES[kind];
    const alive = alivePredicate(kind, input.scope, params);
    const scoped = scopePredicate(kind, 'x', input.scope, params);
    const lexicalPredicate =
      match === null
        ? null
        : input.mode === 'fulltext'
          ? `x.tsv @@ ${match}::tsquery`
          : input.mode === 'trigram'
            ? `${match} <% x.content`
            : `x.content ~* ${match}`;
    const lexicalScore =
      input.mode === 'trigram' && match
        ? `word_similarity(${match}, x.content)`
        : input.mode === 'regex'
          ? '1::float8'
          : 'NULL::float8';
    const sources: string[] = [];
    if (lexicalPredicate) {
      sources.push(
        `(SELECT x.id FROM ${table} x WHERE x.tenant_id = ${tenant} AND ${lexicalPredicate} AND ${alive} AND ${scoped} LIMIT ${CANDIDATE_BUDGET})`,
      );
    }
    // In regex and fuzzy modes the pattern is a requirement: only what matches it is eligible.
    const required = input.mode === 'fulltext' ? 'true' : (lexicalPredicate ?? 'false');
    if (vector && model && input.mode === 'fulltext') {
      // "+ 0" keeps the planner off the HNSW index: only a bare `embedding <=> v` matches it.
      const exact = input.documents * VECTORS_PER_MESSAGE[kind] <= EXACT_VECTOR_SCAN_LIMIT;
      const distance = exact
        ? `(e.embedding <=> ${vector}::halfvec) + 0`
        : `e.embedding <=> ${vector}::halfvec`;
      // The nearest of what the filters let through (a fact in force, the agent, the dates …):
      // the nearest of the whole tenant would leave a narrow filter a few of them, or none.
      // Each vector's item is read by its id alone (OFFSET 0 keeps the planner from folding the
      // filters in): on a young table without statistics, the planner once walked the agent's
      // index for every vector instead, 28–36 s a search (measured in the chaos run's first minute).
      const filtered = scoped !== 'true' || alive !== 'true';
      sources.push(
        filtered
          ? `(SELECT e.item_id AS id FROM embeddings e
               CROSS JOIN LATERAL (SELECT * FROM ${table} x WHERE x.id = e.item_id OFFSET 0) x
               WHERE e.tenant_id = ${tenant} AND e.item_kind = '${kind}' AND e.model = ${model}
                 AND x.tenant_id = ${tenant} AND ${alive} AND ${scoped}
               ORDER BY ${distance} LIMIT ${SEMANTIC_CANDIDATES})`
          : `(SELECT e.item_id AS id FROM embeddings e
               WHERE e.tenant_id = ${tenant} AND e.item_kind = '${kind}' AND e.model = ${model}
               ORDER BY ${distance} LIMIT ${SEMANTIC_CANDIDATES})`,
      );
    }
    if (sources.length === 0) continue;
    parts.push(`
      SELECT ${candidateColumns(kind, tenant, terms, vector, model)}, ${lexicalScore} AS lexical_score,
             coalesce(${required} AND ${alive} AND ${scoped}, false) AS eligible
        FROM (${sources.join(' UNION ')}) ids
        JOIN ${table} x ON x.id = ids.id
        LEFT JOIN item_access a ON a.item_kind = '${kind}' AND a.item_id = x.id
       WHERE x.tenant_id = ${tenant}`);
  }
  if (parts.length === 0) return { text: 'SELECT NULL WHERE false', values: [] };
  return { text: parts.join('\nUNION ALL\n'), values: params.values };
}

/**
 * The two messages before and after each seed in its conversation's order, with the
 * columns of a candidate: `seed`, `offset` (−2, −1, 1, 2) and whether the neighbour
 * passes the filters itself.
 */
export function neighboursStatement(
  scope: SearchScope,
  seeds: readonly string[],
  terms: readonly string[],
  vector: readonly number[] | null,
  model: string | null,
): Statement {
  const params = new Params();
  const tenant = params.add(scope.tenantId);
  const seedParam = params.add(seeds);
  const termsParam = params.add(terms.map(tsqueryOf));
  const vectorParam = vector ? params.add(`[${vector.join(',')}]`) : null;
  const modelParam = vector ? params.add(model) : null;
  const scoped = scopePredicate('message', 'x', scope, params);
  // As of a moment, the conversation ends there: a turn said after it lends no words.
  const said = scope.asOf ? `AND n.created_at <= ${params.add(throughMillisecond(scope.asOf))}` : '';
  // Each side is an ORDER BY … LIMIT 2 that matches messages_conversation_order exactly: a
  // two-row index scan (run it after NEIGHBOUR_SETTINGS); the offsets are the array's ordinality.
  const side = (op: '<' | '>', order: 'ASC' | 'DESC', sign: string) => `
      SELECT n.id, ${sign}n.k AS "offset" FROM unnest(ARRAY(
        SELECT n.id FROM messages n
         WHERE n.conversation_id = s.conversation_id
           AND (n.created_at, n.stream_seq, n.position, n.id) ${op} (s.created_at, s.stream_seq, s.position, s.id) ${said}
         ORDER BY n.created_at ${order}, n.stream_seq ${order}, n.position ${order}, n.id ${order}
         LIMIT 2)) WITH ORDINALITY n(id, k)`;
  return {
    text: `
      SELECT s.id::text AS seed, w."offset"::int AS "offset", ${candidateColumns('message', tenant, termsParam, vectorParam, modelParam)},
             NULL::float8 AS lexical_score, coalesce(${scoped}, false) AS eligible
        FROM messages s
        CROSS JOIN LATERAL (${side('<', 'DESC', '-')} UNION ALL ${side('>', 'ASC', '')}) w
        JOIN messages x ON x.id = w.id
        LEFT JOIN item_access a ON a.item_kind = 'message' AND a.item_id = x.id
       WHERE s.tenant_id = ${tenantBesideIds(tenant)} AND s.id = ANY(${seedParam}::bigint[])`,
    values: params.values,
  };
}

/**
 * What is returned: content, provenance and last access of each item, by kind and id; an
 * id the tenant does not hold has no row. memory_search and mem.rpc.expand both read items here;
 * search asks for facts in force only (`liveFactsOnly`: now, or at `asOf`), so a fact forgotten
 * after it was ranked — by an index that had not heard yet — is never returned.
 */
export function itemsStatement(
  tenantId: string,
  refs: Readonly<Record<ItemKind, readonly string[]>>,
  options: { readonly liveFactsOnly?: boolean; readonly asOf?: Date } = {},
): Statement {
  const asOf = options.liveFactsOnly ? options.asOf : undefined;
  const facts = asOf ? factInForceAsOf('f', '$5::timestamptz') : factInForce('f');
  // Each row's conversation and last access by primary key too, joined laterally so the order holds.
  const channel = (alias: string) =>
    `(SELECT c.channel FROM conversations c WHERE c.id = ${alias}.conversation_id AND c.tenant_id = ${tenantBesideIds('$1')} LIMIT 1) c`;
  const access = (kind: ItemKind, alias: string) =>
    `LEFT JOIN LATERAL (SELECT a.last_accessed_at FROM item_access a WHERE a.item_kind = '${kind}' AND a.item_id = ${alias}.id LIMIT 1) a ON true`;
  return {
    text: `
      SELECT 'message' AS kind, m.id::text AS id, m.content, m.agent, m.conversation_id::text AS conversation_id, c.channel,
             m.role, m.author, m.created_at, NULL::int AS depth, NULL::text[] AS source_message_ids, a.last_accessed_at
        FROM ${rowsById('messages', 'm', '$2', '$1')}
        CROSS JOIN LATERAL ${channel('m')} ${access('message', 'm')}
      UNION ALL
      SELECT 'summary', s.id::text, s.content, s.agent, s.conversation_id::text, c.channel, NULL, NULL, s.latest_at, s.depth, NULL,
             a.last_accessed_at
        FROM ${rowsById('summaries', 's', '$3', '$1')}
        CROSS JOIN LATERAL ${channel('s')} ${access('summary', 's')}
      UNION ALL
      SELECT 'fact', f.id::text, f.content, f.agent, f.conversation_id::text, c.channel, NULL, NULL, f.valid_from, NULL,
             f.source_message_ids::text[], a.last_accessed_at
        FROM ${rowsById('facts', 'f', '$4', '$1', options.liveFactsOnly ? facts : 'true')}
        LEFT JOIN LATERAL ${channel('f')} ON true ${access('fact', 'f')}`,
    values: [tenantId, refs.message, refs.summary, refs.fact, ...(asOf ? [throughMillisecond(asOf)] : [])],
  };
}

/** The items a search returns (itemsStatement): facts in force at the scope's asOf, or now. */
export function searchItemsStatement(
  scope: SearchScope,
  refs: Readonly<Record<ItemKind, readonly string[]>>,
): Statement {
  return itemsStatement(scope.tenantId, refs, {
    liveFactsOnly: true,
    ...(scope.asOf && { asOf: scope.asOf }),
  });
}

/**
 * What summaries and facts expand to: every message under a summary (through its
 * children, down to the leaves) and a fact's source messages, each with the query
 * terms it contains, so the caller can keep the most relevant ones; and a branch's
 * child summaries. As of a moment (`asOf`), only what was said by then.
 */
export function expansionStatement(
  tenantId: string,
  summaryIds: readonly string[],
  factIds: readonly string[],
  terms: readonly string[],
  asOf?: Date,
): Statement {
  return {
    text: `
      WITH RECURSIVE tree AS (
        SELECT ss.summary_id AS root, ss.source_kind, ss.source_id, 1 AS level
          FROM summary_sources ss WHERE ss.tenant_id = ${tenantBesideIds('$1')} AND ss.summary_id = ANY($2::bigint[])
        UNION ALL
        SELECT t.root, ss.source_kind, ss.source_id, t.level + 1
          FROM tree t JOIN summary_sources ss ON ss.summary_id = t.source_id AND t.source_kind = 'summary'
         WHERE ss.tenant_id = $1 AND t.level < 3
      ), sources AS (
        SELECT 'summary' AS parent_kind, root::text AS parent_id, source_kind, source_id, level FROM tree
         WHERE source_kind = 'message' OR level = 1
        UNION ALL
        SELECT 'fact', f.id::text, 'message', unnest(f.source_message_ids), 1 FROM facts f
         WHERE f.tenant_id = ${tenantBesideIds('$1')} AND f.id = ANY($3::bigint[])
      )
      SELECT src.parent_kind, src.parent_id, src.source_kind AS kind, src.source_id::text AS id, src.level,
             coalesce(m.created_at, s.latest_at) AS created_at,
             (SELECT coalesce(sum(1 << (i - 1)), 0) FROM generate_subscripts($4::tsquery[], 1) i
               WHERE coalesce(m.tsv, s.tsv) @@ ($4::tsquery[])[i])::int AS matched
        FROM sources src
        LEFT JOIN messages m ON src.source_kind = 'message' AND m.id = src.source_id AND m.tenant_id = $1
        LEFT JOIN summaries s ON src.source_kind = 'summary' AND s.id = src.source_id AND s.tenant_id = $1
       WHERE ${asOf ? '(m.created_at <= $5 OR s.latest_at <= $5)' : 'm.id IS NOT NULL OR s.id IS NOT NULL'}`,
    values: [
      tenantId,
      summaryIds,
      factIds,
      terms.map(tsqueryOf),
      ...(asOf ? [throughMillisecond(asOf)] : []),
    ],
  };
}

/** A lexeme as a one-term tsquery (quoted: a lexeme may hold characters tsquery reads as operators). */
export function tsqueryOf(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * Set before the neighbours statement, for the rest of the transaction: no bitmap scans.
 * RLS's tenant condition matches the tenant+tsv GIN index, and the planner, taking the
 * conversation and the tenant for independent, expects ANDing the tenant's whole posting list
 * into the conversation's rows to leave one row; it reads thousands instead of a two-row index
 * scan (40 ms against 3 for 40 seeds). The statements after it read by key.
 */
export const NEIGHBOUR_SETTINGS: Statement = {
  text: `SELECT set_config('enable_bitmapscan', 'off', true)`,
  values: [],
};

/** Regex and fuzzy modes read text row by row: they get a time limit. */
export const SCAN_TIMEOUT = '3s';
/** Fuzzy mode: how similar (0–1) a stretch of text must be to the query; pg_trgm's 0.6 misses two typos in two words. */
export const FUZZY_THRESHOLD = 0.3;

/**
 * The settings of the transaction a search runs in, in one statement. No parallel workers:
 * a search reads a bounded set of rows, and on a small machine starting workers costs more
 * than they save while they take cores from other searches. No JIT: compiling a plan
 * (~45 ms measured) takes longer than a whole search should.
 */
export function settingsStatement(mode: SearchMode): Statement {
  const settings: Record<string, string> = {
    'hnsw.ef_search': String(HNSW_EF_SEARCH),
    'hnsw.iterative_scan': 'relaxed_order',
    max_parallel_workers_per_gather: '0',
    jit: 'off',
    ...(mode !== 'fulltext' && { statement_timeout: SCAN_TIMEOUT }),
    ...(mode === 'trigram' && { 'pg_trgm.word_similarity_threshold': String(FUZZY_THRESHOLD) }),
  };
  const names = Object.keys(settings);
  return {
    text: `SELECT ${names.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`,
    values: names.flatMap((name) => [name, settings[name]]),
  };
}
