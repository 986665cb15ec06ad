import { Rpcs, Subjects, type SearchResponse } from '@engram/contracts';
import { startServiceUnderTest, waitFor, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';
import { MemoryIndex } from './index/memory-index.service';

/** Turns of an Italian conversation: its first holds enough prose for ingest to decide its language. */
const ITALIAN: Array<[string, string]> = [
  [
    'Ho comprato due gatti ieri al mercato del paese: sono fratelli e dormono sempre insieme sul divano del salotto.',
    'Che bello! Ricordati di portarli dal veterinario per le vaccinazioni prima della fine del mese prossimo.',
  ],
  ['Si chiamano Micio e Fufi.', 'Nomi bellissimi, complimenti!'],
];
const ENGLISH: Array<[string, string]> = [
  [
    'I adopted two cats, Bailey and Oliver, last spring. They sleep on the balcony all day and wake up hungry every evening around six.',
    'Lovely names! Remember to book their vaccinations at the vet before the end of next month, and get them a scratching post.',
  ],
  ['Will do, thanks.', 'You are welcome.'],
];

/**
 * Languages end to end (real ingest, Postgres and NATS): ingest decides an Italian
 * conversation is Italian and indexes it so; a search for "gatto" or "gatti" finds "Ho comprato
 * due gatti", from Postgres and from the in-memory index alike; an English tenant's search is
 * stemmed as before (English only) and finds the same.
 */
describe('memory_search across languages (real ingest, Postgres and NATS)', () => {
  let retrieval: ServiceUnderTest;
  let memoryIndex: MemoryIndex;

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'languages',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      // No Gerty: searches answer from full text at once.
      config: { SEARCH_EMBED_TIMEOUT_MS: '50' },
      processes: ['ingest'],
    });
    memoryIndex = retrieval.apps[0]!.get(MemoryIndex);
    await converse('roma', 'gatti', ITALIAN);
    await converse('acme', 'cats', ENGLISH);
    await waitFor(
      'both conversations stored',
      async () => (await retrieval.count(`SELECT count(*) AS n FROM messages`)) === 8,
      20_000,
    );
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  /** Publishes the turns of one conversation of Ada and the assistant, as an agent runtime does. */
  async function converse(tenantId: string, sessionKey: string, turns: Array<[string, string]>) {
    for (const [i, [user, assistant]] of turns.entries()) {
      const turnId = `${sessionKey}-${i}`;
      const turn = {
        turnId,
        sessionKey,
        messages: [
          { role: 'user', author: 'Ada', content: user },
          { role: 'assistant', content: assistant },
        ],
      };
      await retrieval.js.publish(Subjects.turn(tenantId, 'helper'), JSON.stringify(turn), { msgID: turnId });
    }
  }

  const search = (tenantId: string, query: string) =>
    retrieval.rpc.call(
      Rpcs.search,
      { query, topK: 3, recordAccess: false, filters: { kinds: ['message'] } },
      { tenantId },
    ) as Promise<SearchResponse>;

  it('indexes each conversation with its language, and the tenant with every language it uses', async () => {
    const rows = await retrieval.sql<{ tenant_id: string; language: string; languages: string }>(
      `SELECT c.tenant_id, c.language::text AS language, t.languages::text AS languages,
              (SELECT array_agg(DISTINCT m.language::text) FROM messages m WHERE m.conversation_id = c.id) AS used
         FROM conversations c JOIN tenants t USING (tenant_id) ORDER BY c.tenant_id`,
    );
    expect(rows).toEqual([
      { tenant_id: 'acme', language: 'english', languages: '{english}', used: ['english'] },
      { tenant_id: 'roma', language: 'italian', languages: '{english,italian}', used: ['italian'] },
    ]);
  });

  it.each(['gatto', 'gatti', 'Gatti'])(
    'finds "Ho comprato due gatti" by "%s", from Postgres and from the index',
    async (word) => {
      // Postgres answers while the tenant has no index.
      const noIndex = jest.spyOn(memoryIndex, 'indexFor').mockReturnValue(null);
      const fromSql = await search('roma', word);
      noIndex.mockRestore();
      expect(fromSql.answeredBy).toBe('sql');
      expect(fromSql.hits[0]?.content).toBe(ITALIAN[0]![0]);
      expect(await memoryIndex.load('roma')).not.toBeNull();
      const fromIndex = await search('roma', word);
      expect(fromIndex.answeredBy).toBe('index');
      expect(fromIndex.hits.map((h) => h.id)).toEqual(fromSql.hits.map((h) => h.id));
    },
  );

  it('stems an English tenant as before: "cat" finds "two cats", by the English stem alone', async () => {
    const found = await search('acme', 'cat vaccination');
    expect(found.hits.slice(0, 2).map((h) => h.content)).toEqual(
      expect.arrayContaining([ENGLISH[0]![0], ENGLISH[0]![1]]),
    );
    const [terms] = await retrieval.sql<{ lexemes: string[] }>(
      `SELECT array_agg(v.lexeme ORDER BY v.lexeme) AS lexemes
         FROM tenants t, unnest(t.languages) l, ts_parse('default', 'gatti cats') p,
              unnest(to_tsvector(l, p.token)) v
        WHERE t.tenant_id = 'acme'`,
    );
    expect(terms!.lexemes).toEqual(['cat', 'gatti']);
  });
});
