import fc from 'fast-check';
import { Client } from 'pg';
import { createScratchDatabase, type ScratchDatabase } from '@engram/testing';
import { ITEM_KINDS, type ItemKind } from '../ranking/candidate';
import { runSearch, type PlannedSearch, type SearchOutcome } from '../plan/run-search';
import { SEMANTIC_CANDIDATES } from '../plan/search-plan';
import type { SearchScope } from '../plan/search-scope';
import { sqlSearchSource, type SearchSource, type StatementRunner } from '../plan/search-source';
import { indexSearchSource } from './index-source';
import { readCatalogue, readTenantRows } from './index-statements';
import { LexemeCache } from './lexeme-cache';
import type { TenantIndex } from './tenant-index';
import { TenantIndexes } from './tenant-indexes';

/**
 * The differential spec of the in-memory index: on a generated corpus (messages, a summary
 * tree, facts in force, forgotten and expired, vectors, access counts) random queries with
 * random filters, some asked as of a past moment, give, step by step, the same rows from the
 * index as from Postgres — term frequencies, candidates (with their matched terms, cosines,
 * eligibility), neighbours, expansions — and so the same top-k with the same scores.
 */

const DIMENSIONS = 100;
const TENANT = 'difftenant';
const VOCABULARY = [
  'cat',
  'cats',
  'river',
  'bakery',
  'Lisbon',
  'migration',
  'postgres',
  'credentials',
  'kubernetes',
  'pods',
  'memory',
  'balcony',
  'painting',
  'research',
  'adoption',
  'agency',
  'camping',
  'mountains',
  'sunrise',
  'violin',
  'concert',
  'pottery',
  'class',
  'friends',
  'family',
  'running',
  'marathon',
  'book',
  'library',
  'garden',
  'tomatoes',
  'support',
  'group',
  'transgender',
  'counseling',
  'career',
  "don't",
  'e-mail',
  'well-being',
  'yesterday',
  'week',
  'the',
  'and',
  'is',
  'was',
  'recipe',
  'pizza',
];
const AUTHORS = ['Caroline', 'Melanie', null];
const AGENTS = ['helper', 'coach'];
const CHANNELS = ['slack', 'web', null];
const BASE_US = Date.parse('2026-03-01T00:00:00Z') * 1000;
const DAY_US = 86_400_000_000;

/** A small deterministic generator (mulberry32): the corpus is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the in-memory index answers every step of a search as Postgres does (real Postgres)', () => {
  let db: ScratchDatabase;
  let admin: Client;
  let app: Client;
  const rand = random(16);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(rand() * values.length)]!;
  const vectorText = () =>
    `[${Array.from({ length: DIMENSIONS }, () => (rand() * 2 - 1).toFixed(4)).join(',')}]`;
  const iso = (us: number) =>
    new Date(Math.floor(us / 1000)).toISOString().replace('Z', `${String(us % 1000).padStart(3, '0')}Z`);
  const conversationIds: string[] = [];
  const messageIds: string[] = [];
  const lexemes = new LexemeCache();

  /** The tenant's index as retrieval loads it: its catalogue, then pages of conversations (of 7 messages here, so many). */
  async function loadIndex(): Promise<TenantIndex> {
    const indexes = new TenantIndexes({
      read: (tenantId, selection) => inTenant((run) => readTenantRows(run, tenantId, selection)),
      catalogue: (tenantId) => inTenant((run) => readCatalogue(run, tenantId)),
      memoryBytes: 1 << 30,
      pageMessages: 7,
    });
    const index = await indexes.whenLoaded(TENANT);
    indexes.close();
    return index!;
  }

  async function inTenant<T>(work: (run: StatementRunner) => Promise<T>): Promise<T> {
    await app.query('BEGIN');
    try {
      await app.query(`SELECT set_config('engram.tenant_id', $1, true)`, [TENANT]);
      const result = await work(async (s) => (await app.query(s.text, s.values)).rows);
      await app.query('COMMIT');
      return result;
    } catch (error) {
      await app.query('ROLLBACK');
      throw error;
    }
  }

  /** Messages (90 % with a vector); those stored before the index loads are also accessed now and then. */
  async function addMessages(count: number, startUs: number, accessed = true): Promise<void> {
    for (let i = 0; i < count; i++) {
      const conversation = pick(conversationIds);
      const words = Array.from({ length: 2 + Math.floor(rand() * 9) }, () => pick(VOCABULARY));
      const content = words.join(' ') + (rand() < 0.2 ? '?' : rand() < 0.1 ? '?  ' : '.');
      // Some turns share a time to the microsecond: the order then falls to stream_seq, position, id.
      const at = startUs + Math.floor(i / 3) * (DAY_US / 4 + 997_001) + (i % 3 === 2 ? 0 : i % 3);
      const r = await admin.query<{ id: string }>(
        `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, author, content, token_estimate, created_at)
         SELECT $1, c.id, c.agent, $3, $4, $5, $6, $7, $8, $9, $10 FROM conversations c WHERE c.id = $2 RETURNING id::text`,
        [
          TENANT,
          conversation,
          `t${messageIds.length}`,
          i % 2,
          Math.floor(i / 2),
          pick(['user', 'assistant', 'tool']),
          pick(AUTHORS),
          content,
          words.length + 2,
          iso(at),
        ],
      );
      const id = r.rows[0]!.id;
      messageIds.push(id);
      await admin.query(
        `UPDATE conversations SET message_count = message_count + 1, token_estimate = token_estimate + $2 WHERE id = $1`,
        [conversation, words.length + 2],
      );
      if (rand() < 0.9) await embed('message', id);
      if (accessed && rand() < 0.15) await access('message', id);
    }
  }

  async function embed(kind: ItemKind, id: string): Promise<void> {
    await admin.query(
      `INSERT INTO embeddings (item_kind, item_id, tenant_id, model, embedding) VALUES ($1, $2, $3, 'test-model', $4)`,
      [kind, id, TENANT, vectorText()],
    );
  }

  async function access(kind: ItemKind, id: string): Promise<void> {
    await admin.query(
      `INSERT INTO item_access (item_kind, item_id, tenant_id, access_count, last_accessed_at) VALUES ($1, $2, $3, $4, $5)`,
      [kind, id, TENANT, 1 + Math.floor(rand() * 5), iso(BASE_US + Math.floor(rand() * 40 * DAY_US))],
    );
  }

  async function seed(): Promise<void> {
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ($1), ('othertenant')`, [TENANT]);
    for (let c = 0; c < 6; c++) {
      const r = await admin.query<{ id: string }>(
        `INSERT INTO conversations (tenant_id, agent, session_key, channel) VALUES ($1, $2, $3, $4) RETURNING id::text`,
        [TENANT, AGENTS[c % 2], `s${c}`, CHANNELS[c % 3]],
      );
      conversationIds.push(r.rows[0]!.id);
    }
    await addMessages(360, BASE_US);
    // Another tenant's words are nowhere in this tenant's index.
    await admin.query(
      `INSERT INTO conversations (tenant_id, agent, session_key) VALUES ('othertenant', 'helper', 'o')`,
    );
    // A summary tree over the first conversation: leaves over its messages, a branch over the leaves.
    const first = (
      await admin.query<{ id: string }>(
        `SELECT id::text FROM messages WHERE conversation_id = $1 ORDER BY created_at, id`,
        [conversationIds[0]],
      )
    ).rows.map((r) => r.id);
    const leaves: string[] = [];
    for (let l = 0; l < 3; l++) {
      const sources = first.slice(l * 8, l * 8 + 8);
      const leaf = await summary(
        0,
        `${pick(VOCABULARY)} ${pick(VOCABULARY)} ${pick(VOCABULARY)} summary`,
        'message',
        sources,
      );
      leaves.push(leaf);
    }
    await summary(1, `branch about ${pick(VOCABULARY)} and ${pick(VOCABULARY)}`, 'summary', leaves);
    // Facts: in force, forgotten, expired, without a conversation.
    for (let f = 0; f < 30; f++) {
      const state = f % 5;
      const r = await admin.query<{ id: string }>(
        `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key, conversation_id,
                            source_message_ids, valid_from, valid_to, expires_at)
         VALUES ($1, $2, $3, 'fact', 'sticky', $4, 'saved', $5, $6, $7, $8, $9, $10) RETURNING id::text`,
        [
          TENANT,
          pick(AGENTS),
          `${pick(VOCABULARY)} ${pick(VOCABULARY)} ${pick(VOCABULARY)} fact number ${f}`,
          1 + (f % 10),
          `k${f}`,
          state === 3 ? null : pick(conversationIds),
          [pick(messageIds), pick(messageIds)],
          iso(BASE_US + f * DAY_US),
          state === 1 ? iso(BASE_US + 40 * DAY_US) : null,
          state === 2 ? iso(BASE_US + 2 * DAY_US) : state === 4 ? '2999-01-01T00:00:00Z' : null,
        ],
      );
      if (rand() < 0.8) await embed('fact', r.rows[0]!.id);
    }
  }

  async function summary(
    depth: number,
    content: string,
    kind: 'message' | 'summary',
    sources: string[],
  ): Promise<string> {
    const conversation = conversationIds[0]!;
    const r = await admin.query<{ id: string }>(
      `INSERT INTO summaries (tenant_id, conversation_id, agent, depth, content, earliest_at, latest_at, message_count, token_estimate, model)
       VALUES ($1, $2, 'helper', $3, $4, $5, $6, $7, 30, 'test') RETURNING id::text`,
      [
        TENANT,
        conversation,
        depth,
        content,
        iso(BASE_US + depth * DAY_US),
        iso(BASE_US + (depth + 3) * DAY_US),
        sources.length,
      ],
    );
    const id = r.rows[0]!.id;
    for (const [ordinal, source] of sources.entries())
      await admin.query(
        `INSERT INTO summary_sources (tenant_id, summary_id, source_kind, source_id, ordinal) VALUES ($1, $2, $3, $4, $5)`,
        [TENANT, id, kind, source, ordinal],
      );
    await embed('summary', id);
    return id;
  }

  beforeAll(async () => {
    db = await createScratchDatabase('memory-index');
    admin = new Client({ connectionString: db.adminUrl });
    app = new Client({ connectionString: db.appUrl });
    await admin.connect();
    await app.connect();
    await seed();
  });

  afterAll(async () => {
    await app?.end();
    await admin?.end();
    await db?.drop();
  });

  /** A source that records what each step answered. */
  function recording(source: SearchSource, steps: Record<string, unknown[]>): SearchSource {
    const record =
      <A extends unknown[], R>(name: string, step: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        const rows = await step(...args);
        (steps[name] ??= []).push(rows);
        return rows;
      };
    return {
      path: source.path,
      terms: record('terms', source.terms),
      frequencies: record('frequencies', source.frequencies),
      candidates: record('candidates', source.candidates),
      neighbours: record('neighbours', source.neighbours),
      expansions: record('expansions', source.expansions),
      items: record('items', source.items),
    };
  }

  /** Rows made comparable: numbers as numbers, cosines to 5 places, in a fixed order. */
  function normalised(step: string, rows: unknown): unknown {
    const list = (rows as Array<Record<string, unknown>>).map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([k, v]) => [
          k,
          v instanceof Date
            ? v.getTime()
            : k === 'cosine' && v !== null
              ? Number(v)
              : k === 'words' && v !== null
                ? [...(v as string[])].sort()
                : typeof v === 'string' && /^\d+$/.test(v) && k !== 'lexeme'
                  ? Number(v)
                  : v,
        ]),
      ),
    );
    if (step === 'terms' || step === 'frequencies') return list;
    const key = (row: Record<string, unknown>) => JSON.stringify({ ...row, cosine: undefined });
    return list.sort((a, b) => key(a).localeCompare(key(b)));
  }

  async function both(search: PlannedSearch, vector: number[] | null, index: TenantIndex) {
    // A search asked as of a moment is ranked from it (as the use case does).
    const now = search.scope.asOf ?? new Date(Math.floor(BASE_US / 1000) + 45 * 86_400_000);
    const query = Promise.resolve(
      vector ? { vector, model: 'test-model' } : { vector: null, reason: 'none' },
    );
    const sqlSteps: Record<string, unknown[]> = {};
    const indexSteps: Record<string, unknown[]> = {};
    const sql = await inTenant((run) =>
      runSearch(recording(sqlSearchSource(run, 'fulltext'), sqlSteps), search, query, now),
    );
    const fromIndex = await inTenant((run) =>
      runSearch(recording(indexSearchSource(index, run, lexemes, now), indexSteps), search, query, now),
    );
    return { sql, fromIndex, sqlSteps, indexSteps };
  }

  const placedOf = (outcome: SearchOutcome) =>
    outcome.known
      ? outcome.placed.map((p) => ({
          ref: `${p.kind}:${p.id}`,
          from: p.expandedFrom,
          fused: p.ranked ? Number(p.ranked.signals.fused.toFixed(4)) : null,
        }))
      : [];

  /**
   * A filter present in about one query of four (fc.option's `freq` is the inverse of the
   * chance of none: `freq: 1` gave no filter, no vector and no asOf ever).
   */
  const sometimes = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
    fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary, weight: 1 });

  const queries = fc.record({
    words: fc.array(
      fc.oneof(
        fc.constantFrom(...VOCABULARY),
        fc.constantFrom('Caroline', 'Melanie', 'zebra', 'last', 'week', 'on', '1 March, 2026'),
      ),
      { minLength: 1, maxLength: 7 },
    ),
    agent: sometimes(fc.constantFrom(...AGENTS, 'nobody')),
    channel: sometimes(fc.constantFrom('slack', 'web')),
    conversation: sometimes(fc.nat(5)),
    roles: sometimes(fc.subarray(['user', 'assistant', 'tool'], { minLength: 1 })),
    fromDay: sometimes(fc.integer({ min: -1, max: 30 })),
    toDay: sometimes(fc.integer({ min: 0, max: 40 })),
    // In hours, past every row at most (turns are about six hours apart).
    asOfHour: sometimes(fc.integer({ min: 0, max: 46 * 24 })),
    kinds: sometimes(fc.subarray([...ITEM_KINDS], { minLength: 1 })),
    vectorOf: sometimes(fc.nat(10_000)),
    topK: fc.integer({ min: 1, max: 25 }),
    fusion: fc.constantFrom('weighted' as const, 'rrf' as const),
  });

  type Query = typeof queries extends fc.Arbitrary<infer T> ? T : never;

  async function agree(index: TenantIndex, q: Query) {
    const scope: SearchScope = {
      tenantId: TENANT,
      kinds: q.kinds ?? ITEM_KINDS,
      ...(q.agent && { agent: q.agent }),
      ...(q.channel && { channel: q.channel }),
      ...(q.conversation !== undefined && { conversationId: conversationIds[q.conversation]! }),
      ...(q.roles && { roles: q.roles }),
      ...(q.fromDay !== undefined && { from: new Date(Math.floor(BASE_US / 1000) + q.fromDay * 86_400_000) }),
      ...(q.toDay !== undefined && { to: new Date(Math.floor(BASE_US / 1000) + q.toDay * 86_400_000) }),
      ...(q.asOfHour !== undefined && {
        asOf: new Date(Math.floor(BASE_US / 1000) + q.asOfHour * 3_600_000),
      }),
    };
    const vector =
      q.vectorOf === undefined
        ? null
        : Array.from({ length: DIMENSIONS }, (_, i) => Math.sin(q.vectorOf! * 7.3 + i * 1.7));
    const search: PlannedSearch = {
      query: q.words.join(' '),
      mode: 'fulltext',
      fusion: q.fusion,
      topK: q.topK,
      expand: true,
      scope,
    };
    const { sql, fromIndex, sqlSteps, indexSteps } = await both(search, vector, index);
    for (const step of ['terms', 'frequencies', 'candidates', 'neighbours', 'expansions', 'items']) {
      // Postgres sums a cosine in single precision, the index in double.
      const cosineClose = (rows: unknown) =>
        (rows as Array<Record<string, unknown>>).map((row) =>
          typeof row.cosine === 'number' ? { ...row, cosine: expect.closeTo(row.cosine, 5) } : row,
        );
      expect({ step, rows: (indexSteps[step] ?? []).map((r) => normalised(step, r)) }).toEqual({
        step,
        rows: (sqlSteps[step] ?? []).map((r) => cosineClose(normalised(step, r))),
      });
    }
    expect(placedOf(fromIndex)).toEqual(placedOf(sql));
    // As of a moment, nothing said (or held) after it is returned, whichever source ranked it.
    if (scope.asOf && sql.known)
      for (const p of sql.placed)
        expect(p.item.created_at.getTime()).toBeLessThanOrEqual(scope.asOf.getTime());
    return placedOf(sql).length;
  }

  it('gives the same frequencies, candidates, neighbours, expansions and top-k as the SQL plan for random queries and filters', async () => {
    const index = await loadIndex();
    expect(index.documents).toBe(messageIds.length);
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(queries, async (q) => {
        if ((await agree(index, q)) > 0) answered++;
      }),
      { numRuns: 100, seed: 16 },
    );
    // Most queries found something: a comparison of empty answers would prove nothing.
    expect(answered).toBeGreaterThan(50);
  });

  it('as of a moment, neither source lends a later turn its words nor returns what was said or held later', async () => {
    const index = await loadIndex();
    // A turn in the middle of the first conversation, asked about as of the moment it was said.
    const turns = (
      await admin.query<{ id: string; content: string; created_at: Date }>(
        `SELECT id::text, content, created_at FROM messages WHERE conversation_id = $1
          ORDER BY created_at, stream_seq, position, id`,
        [conversationIds[0]],
      )
    ).rows;
    const turn = turns[Math.floor(turns.length / 2)]!;
    const later = turns.filter((t) => t.created_at > turn.created_at).map((t) => t.id);
    const search: PlannedSearch = {
      query: turn.content.replace(/[?.]/g, ''),
      mode: 'fulltext',
      fusion: 'weighted',
      topK: 25,
      expand: true,
      scope: {
        tenantId: TENANT,
        kinds: ITEM_KINDS,
        conversationId: conversationIds[0]!,
        asOf: turn.created_at,
      },
    };
    const { sql, fromIndex, sqlSteps, indexSteps } = await both(search, null, index);
    for (const step of ['candidates', 'neighbours', 'expansions'])
      expect((indexSteps[step] ?? []).map((r) => normalised(step, r))).toEqual(
        (sqlSteps[step] ?? []).map((r) => normalised(step, r)),
      );
    const neighbours = (sqlSteps['neighbours']![0] ?? []) as Array<{
      seed: string;
      id: string;
      offset: number;
    }>;
    // The turn is a seed, with the turns before it and none after.
    expect(neighbours.filter((n) => n.seed === turn.id).map((n) => n.offset)).toEqual([-2, -1]);
    expect(neighbours.map((n) => n.id).filter((id) => later.includes(id))).toEqual([]);
    expect(placedOf(fromIndex)).toEqual(placedOf(sql));
    const placed = sql.known ? sql.placed : [];
    expect(placed.map((p) => p.id)).toContain(turn.id);
    for (const p of placed)
      expect(p.item.created_at.getTime()).toBeLessThanOrEqual(turn.created_at.getTime());
  });

  it('as of a moment, both sources return a fact closed since as it was then, with its sources said by then', async () => {
    const index = await loadIndex();
    // A fact closed later, whose sources were said both before and after a moment it held.
    const facts = (
      await admin.query<{ id: string; content: string; valid_from: Date; valid_to: Date; times: Date[] }>(
        `SELECT f.id::text, f.content, f.valid_from, f.valid_to,
                array(SELECT m.created_at FROM messages m WHERE m.id = ANY(f.source_message_ids) ORDER BY 1) AS times
           FROM facts f WHERE f.tenant_id = $1 AND f.valid_to IS NOT NULL AND f.expires_at IS NULL ORDER BY f.id`,
        [TENANT],
      )
    ).rows;
    const fact = facts.find(
      (f) =>
        f.times.length === 2 &&
        f.times[0]! < f.times[1]! &&
        f.times[1]! > f.valid_from &&
        f.times[0]! < f.valid_to,
    )!;
    expect(fact).toBeDefined();
    const asOf = new Date(
      Math.max(fact.valid_from.getTime(), fact.times[0]!.getTime()) +
        Math.floor(
          (Math.min(fact.valid_to.getTime(), fact.times[1]!.getTime()) -
            Math.max(fact.valid_from.getTime(), fact.times[0]!.getTime())) /
            2,
        ),
    );
    const searchAt = (at: Date | undefined): PlannedSearch => ({
      query: fact.content,
      mode: 'fulltext',
      fusion: 'weighted',
      topK: 25,
      expand: true,
      scope: { tenantId: TENANT, kinds: ['fact'], ...(at && { asOf: at }) },
    });
    const then = await both(searchAt(asOf), null, index);
    for (const step of ['candidates', 'expansions', 'items'])
      expect((then.indexSteps[step] ?? []).map((r) => normalised(step, r))).toEqual(
        (then.sqlSteps[step] ?? []).map((r) => normalised(step, r)),
      );
    expect(placedOf(then.fromIndex)).toEqual(placedOf(then.sql));
    const placed = then.sql.known ? then.sql.placed : [];
    expect(placed.filter((p) => p.kind === 'fact').map((p) => p.id)).toContain(fact.id);
    // Its first source was said by then, its second not.
    const expansions = placed.filter((p) => p.expandedFrom === `fact:${fact.id}`);
    expect(expansions.map((p) => p.item.created_at)).toEqual(
      [fact.times[0]!].map((t) => new Date(t.getTime())),
    );
    // Closed now: not found without asOf.
    const now = await both(searchAt(undefined), null, index);
    expect((now.sql.known ? now.sql.placed : []).map((p) => p.id)).not.toContain(fact.id);
  });

  it('takes the nearest vectors among what the filters let through, on both paths', async () => {
    const index = await loadIndex();
    const coach = (
      await admin.query<{ id: string; embedding: string }>(
        `SELECT m.id::text, e.embedding::text FROM messages m
           JOIN embeddings e ON e.item_kind = 'message' AND e.item_id = m.id
          WHERE m.tenant_id = $1 AND m.agent = 'coach' ORDER BY m.id`,
        [TENANT],
      )
    ).rows;
    const total = Number(
      (
        await admin.query(
          `SELECT count(*) AS n FROM embeddings WHERE tenant_id = $1 AND item_kind = 'message'`,
          [TENANT],
        )
      ).rows[0].n,
    );
    // Coach's vectors are a part of the tenant's: the nearest of all would leave it fewer.
    expect(coach.length).toBeGreaterThan(SEMANTIC_CANDIDATES);
    expect(total).toBeGreaterThan(coach.length + SEMANTIC_CANDIDATES);
    const probe = coach[coach.length - 1]!;
    const search: PlannedSearch = {
      query: 'zebra',
      mode: 'fulltext',
      fusion: 'weighted',
      topK: 10,
      expand: false,
      scope: { tenantId: TENANT, kinds: ['message'], agent: 'coach' },
    };
    const { sqlSteps, indexSteps } = await both(search, JSON.parse(probe.embedding) as number[], index);
    for (const steps of [sqlSteps, indexSteps]) {
      const rows = steps['candidates']![0] as Array<{ id: string; eligible: boolean }>;
      expect(rows.filter((r) => r.eligible)).toHaveLength(SEMANTIC_CANDIDATES);
      expect(rows.map((r) => r.id)).toContain(probe.id);
    }
  });

  it('stays equal after rows the events name are applied to a loaded index', async () => {
    const index = await loadIndex();
    const before = messageIds.length;
    // Access counts change by their own events, not by reading items again: these have none yet.
    await addMessages(40, BASE_US + 35 * DAY_US, false);
    const added = messageIds.slice(before);
    // A fact forgotten after the load, and a vector re-made.
    const forgotten = (
      await admin.query<{ id: string }>(
        `UPDATE facts SET valid_to = now() WHERE id = (SELECT min(id) FROM facts WHERE valid_to IS NULL AND expires_at IS NULL) RETURNING id::text`,
      )
    ).rows[0]!.id;
    await admin.query(`UPDATE embeddings SET embedding = $1 WHERE item_kind = 'message' AND item_id = $2`, [
      vectorText(),
      messageIds[0],
    ]);
    await inTenant(async (run) =>
      index.apply(
        await readTenantRows(run, TENANT, {
          message: [...added, messageIds[0]!],
          fact: [forgotten],
          vectors: [...added, messageIds[0]!].map((id) => ({ kind: 'message' as const, id })),
        }),
      ),
    );
    expect(index.documents).toBe(messageIds.length);
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(queries, async (q) => {
        if ((await agree(index, q)) > 0) answered++;
      }),
      { numRuns: 40, seed: 61 },
    );
    expect(answered).toBeGreaterThan(20);
  });
});
