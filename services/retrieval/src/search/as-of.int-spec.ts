import type { Client } from 'pg';
import { Rpcs, timestampDate, timestampFromDate, type SearchResponse } from '@engram/contracts';
import { startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';
import { MemoryIndex } from './index/memory-index.service';

/** Ada's conversation over two months: what she cooked when, where she lived. */
const LINES: Array<[at: string, role: string, content: string]> = [
  ['2026-05-01T10:00:00Z', 'user', 'I live in Porto and I am planning a trip to Lisbon in June.'],
  ['2026-05-20T19:00:00Z', 'user', 'We cooked risotto together for dinner.'],
  // The evening before asOf: last week, which chrono alone would have ended a day earlier.
  ['2026-06-19T18:00:00Z', 'user', 'We cooked pasta with the kids tonight.'],
  ['2026-06-25T12:00:00Z', 'user', 'We cooked paella at the beach, and I am moving to Lisbon.'],
  ['2026-07-10T09:00:00Z', 'user', 'The Lisbon flat is ready: we cooked our first dinner there.'],
];
const AS_OF = new Date('2026-06-20T12:00:00Z');
const DAY_MS = 86_400_000;

/**
 * memory_search asked as of a past moment (issue 30), on both sources: nothing said or held
 * after it is returned — messages, summaries reaching past it, facts (a fact superseded since
 * as it was then, and expanded to the sources said by then) — "last week" is the week before
 * it, and recency is measured from it.
 */
describe.each([
  ['the in-memory index', 'index', {}],
  ['Postgres', 'sql', { RETRIEVAL_INDEX_MEMORY_MB: '0' }],
] as const)('memory_search as of a past moment, answered by %s', (_name, path, config) => {
  let retrieval: ServiceUnderTest;
  const ids: string[] = [];
  const refs: Record<string, string> = {};

  async function seed(admin: Client): Promise<void> {
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme')`);
    const conversation = (
      await admin.query<{ id: string }>(
        `INSERT INTO conversations (tenant_id, agent, session_key, message_count, token_estimate)
         VALUES ('acme', 'helper', 'life', $1, $2) RETURNING id::text`,
        [LINES.length, LINES.length * 12],
      )
    ).rows[0]!.id;
    for (const [i, [at, role, content]] of LINES.entries()) {
      const row = await admin.query<{ id: string }>(
        `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, author, content, token_estimate, created_at)
         VALUES ('acme', $1, 'helper', $2, 0, $3, $4, 'Ada', $5, 12, $6) RETURNING id::text`,
        [conversation, `t${i}`, i + 1, role, content, at],
      );
      ids.push(row.rows[0]!.id);
    }
    const summary = async (content: string, sources: number[]) => {
      const id = (
        await admin.query<{ id: string }>(
          `INSERT INTO summaries (tenant_id, conversation_id, agent, depth, content, earliest_at, latest_at, message_count, token_estimate, model)
           VALUES ('acme', $1, 'helper', 0, $2, $3, $4, $5, 20, 'test') RETURNING id::text`,
          [conversation, content, LINES[sources[0]!]![0], LINES[sources.at(-1)!]![0], sources.length],
        )
      ).rows[0]!.id;
      for (const [ordinal, source] of sources.entries())
        await admin.query(
          `INSERT INTO summary_sources (tenant_id, summary_id, source_kind, source_id, ordinal) VALUES ('acme', $1, 'message', $2, $3)`,
          [id, ids[source], ordinal],
        );
      return id;
    };
    refs['spring'] = await summary('Spring dinners: Ada cooked risotto and planned her trip.', [0, 1]);
    refs['summer'] = await summary('Summer dinners: Ada cooked pasta and paella.', [2, 3]);
    const fact = async (key: string, content: string, from: string, to: string | null, sources: number[]) =>
      (
        await admin.query<{ id: string }>(
          `INSERT INTO facts (tenant_id, agent, content, category, lifetime, importance, origin, origin_key,
                              conversation_id, source_message_ids, valid_from, valid_to)
           VALUES ('acme', 'helper', $1, 'fact', 'sticky', 7, 'extracted', $2, $3, $4, $5, $6) RETURNING id::text`,
          [content, key, conversation, sources.map((s) => ids[s]), from, to],
        )
      ).rows[0]!.id;
    // Said again on 25 June (a later source), then superseded by the move that day.
    refs['porto'] = await fact('porto', 'Ada lives in Porto.', LINES[0]![0], LINES[3]![0], [0, 3]);
    refs['lisbon'] = await fact('lisbon', 'Ada lives in Lisbon.', LINES[3]![0], null, [3]);
    await admin.query(`UPDATE facts SET superseded_by = $1 WHERE id = $2`, [refs['lisbon'], refs['porto']]);
  }

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: `as-of-${path}`,
      loadConfig: loadRetrievalConfig,
      module: (c) => RetrievalModule.register(c),
      // No Gerty: full text, at once.
      config: { SEARCH_EMBED_TIMEOUT_MS: '50', ...config },
      seed,
    });
    if (path === 'index') expect(await retrieval.apps[0]!.get(MemoryIndex).load('acme')).not.toBeNull();
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  async function search(query: string, extra: Record<string, unknown> = {}): Promise<SearchResponse> {
    const response = (await retrieval.rpc.call(
      Rpcs.search,
      { query, recordAccess: false, ...extra },
      { tenantId: 'acme' },
    )) as SearchResponse;
    expect(response.answeredBy).toBe(path);
    return response;
  }
  const asOf = (at: Date) => ({ asOf: timestampFromDate(at) });
  const refsOf = (r: SearchResponse) => r.hits.map((h) => `${h.kind}:${h.id}`);
  const timeOf = (r: SearchResponse) => r.hits.map((h) => timestampDate(h.createdAt!).getTime());

  it('returns nothing said after asOf: no later message, no summary reaching past it', async () => {
    const now = await search('cooked dinner');
    expect(refsOf(now)).toEqual(expect.arrayContaining([`message:${ids[3]}`, `summary:${refs['summer']}`]));
    const then = await search('cooked dinner', asOf(AS_OF));
    expect(refsOf(then)).toEqual(
      expect.arrayContaining([`message:${ids[1]}`, `message:${ids[2]}`, `summary:${refs['spring']}`]),
    );
    expect(refsOf(then)).not.toContain(`message:${ids[3]}`);
    expect(refsOf(then)).not.toContain(`message:${ids[4]}`);
    expect(refsOf(then)).not.toContain(`summary:${refs['summer']}`);
    for (const at of timeOf(then)) expect(at).toBeLessThanOrEqual(AS_OF.getTime());
  });

  it('returns a fact superseded after asOf as it was then, expanded to its sources said by then', async () => {
    const now = await search('where does Ada live', { filters: { kinds: ['fact'] } });
    expect(refsOf(now)).toContain(`fact:${refs['lisbon']}`);
    expect(refsOf(now)).not.toContain(`fact:${refs['porto']}`);
    const then = await search('where does Ada live', { filters: { kinds: ['fact'] }, ...asOf(AS_OF) });
    expect(refsOf(then)).toEqual([`fact:${refs['porto']}`, `message:${ids[0]}`]);
    expect(then.hits[1]!.expandedFrom).toBe(`fact:${refs['porto']}`);
    // Before it was said, it is not known at all.
    const before = await search('where does Ada live', {
      filters: { kinds: ['fact'] },
      ...asOf(new Date('2026-04-01T00:00:00Z')),
    });
    expect(before.hits).toEqual([]);
  });

  it('reads "last week" as the week before asOf, not a day, and not a month before', async () => {
    const lastWeek = await search('what did we cook last week', asOf(AS_OF));
    expect(lastWeek.hits[0]!).toMatchObject({ id: ids[2], kind: 'message' });
    expect(lastWeek.hits[0]!.signals!.timeMatch).toBe(1);
    const risotto = lastWeek.hits.find((h) => h.id === ids[1]);
    expect(risotto?.signals!.timeMatch).toBe(0);
    // A month earlier, last week is the risotto, and the pasta was not cooked yet.
    const earlier = await search('what did we cook last week', asOf(new Date('2026-05-24T12:00:00Z')));
    expect(earlier.hits[0]!).toMatchObject({ id: ids[1], kind: 'message' });
    expect(refsOf(earlier)).not.toContain(`message:${ids[2]}`);
  });

  it('measures recency from asOf', async () => {
    const then = await search('pasta kids', { filters: { kinds: ['message'] }, ...asOf(AS_OF) });
    const pasta = then.hits.find((h) => h.id === ids[2])!;
    const days = (AS_OF.getTime() - Date.parse(LINES[2]![0])) / DAY_MS;
    expect(pasta.signals!.temporal).toBeCloseTo(Math.exp(-0.05 * days), 6);
  });

  it('refuses an asOf that is no date-time, naming the field', async () => {
    const reply = await retrieval.nc.request(
      'mem.rpc.search.acme',
      JSON.stringify({ query: 'x', asOf: 'last week' }),
      {
        timeout: 5000,
      },
    );
    expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('400');
    expect(JSON.parse(reply.string()).error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: {
        fieldViolations: [
          {
            field: 'asOf',
            description:
              'asOf must be an RFC 3339 date-time such as "2026-03-01T12:00:00Z" (got "last week")',
          },
        ],
      },
    });
  });
});
