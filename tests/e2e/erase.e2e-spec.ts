import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { jetstreamManager } from '@nats-io/jetstream';
import { DataSource } from 'typeorm';
import { request } from 'undici';
import {
  DeadLetterSchema,
  decodeMessage,
  MsgIds,
  Rpcs,
  Streams,
  Subjects,
  type MessageInitShape,
  type RpcSpec,
} from '@engram/contracts';
import { callRpc, RpcError } from '@engram/messaging';
import { ApiKeyStore, createDataSource } from '@engram/store';
import {
  startService,
  startTestEnvironment,
  waitFor,
  type ServiceProcess,
  type TestEnvironment,
} from '@engram/testing';

const CLI = resolve(__dirname, '../../tools/cli/dist/main.js');
/** Said only in the conversation erased (and, in another tenant, in a conversation that stays). */
const SECRET = 'quetzalcoatl';
/** Words no conversation says: what finds an item here, its vector found. */
const VECTOR_QUERY = 'fitness exercise password food';

interface Turn {
  readonly turnId: string;
  readonly sessionKey: string;
  readonly messages: ReadonlyArray<{ role: string; content: string; author?: string }>;
}

const exchange = (turnId: string, sessionKey: string, user: string, assistant: string): Turn => ({
  turnId,
  sessionKey,
  messages: [
    { role: 'user', author: 'Ada', content: user },
    { role: 'assistant', content: assistant },
  ],
});

/** acme's agent ada: the conversation to erase, three turns, a memory tag and a state tag. */
const ERASED: Turn[] = [
  exchange(
    'e1',
    'trip',
    `My locker code at the ${SECRET} gym is 4417.`,
    `Noted. [MEMORY:sticky]Ada's locker at the ${SECRET} gym has code 4417.[/MEMORY][STATE:locker]${SECRET} 4417[/STATE]`,
  ),
  exchange('e2', 'trip', `I love the ${SECRET} tacos from the night market.`, 'Those tacos sound great.'),
  exchange(
    'e3',
    'trip',
    `Remind me about the ${SECRET} gym on Friday morning.`,
    'I will remind you on Friday.',
  ),
];
/** What stays: ada's other conversation, bob's, and globex's ada saying the same word. */
const KEPT: Array<{ tenant: string; agent: string; turns: Turn[] }> = [
  {
    tenant: 'acme',
    agent: 'ada',
    turns: [
      exchange('k1', 'home', 'My kitchen shelf holds six jars of marmalade.', 'Six jars of marmalade!'),
      exchange('k2', 'home', 'The marmalade is made from Seville oranges.', 'Seville oranges are bitter.'),
      exchange('k3', 'home', 'I give the marmalade to my neighbours.', 'Kind of you.'),
    ],
  },
  {
    tenant: 'acme',
    agent: 'bob',
    turns: [exchange('b1', 'band', 'I play the saxophone in a jazz band.', 'A jazz saxophonist, nice.')],
  },
  {
    tenant: 'globex',
    agent: 'ada',
    turns: [exchange('g1', 'trip', `The ${SECRET} museum opens at nine.`, 'Nine it is.')],
  },
];

/** Counts of what a conversation holds and what was derived from it. */
interface Footprint {
  messages: number;
  messageVectors: number;
  summaries: number;
  summaryVectors: number;
  facts: number;
  factVectors: number;
}

interface Answer {
  status: number;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * Erase through the whole stack: every service as its own process (two retrieval replicas), real
 * NATS and Postgres, the built-in model deriving vectors, summaries and facts. One conversation is
 * erased over HTTP; then no search path finds a word of it — memory_search (index on each replica,
 * strong, regex, trigram, vectors), browse, recall, facts, state, summaries, context, the mem0 and
 * MCP routes, dead letters — no row of the tenant holds it, TURNS and DEADLETTERS hold none of its
 * messages, the other conversation, agent and tenant are untouched, and the audit entry counts
 * what went. Erasing again erases nothing. Then an agent's erase killed after its commit is
 * finished by the next erase of the tenant (run with the engram command).
 */
describe('erase (every service as a process, real NATS and Postgres)', () => {
  let env: TestEnvironment;
  /** The services, started one after another (each boots faster alone on a busy machine). */
  const services: ServiceProcess[] = [];
  /** The two retrieval replicas. */
  let replicaPair: ServiceProcess[] = [];
  let dataSource: DataSource;
  let acmeKey: { id: string; key: string };
  let base: string;
  const ids = { erased: '', home: '', band: '', globex: '' };
  const derived = { message: [] as string[], summary: [] as string[], fact: [] as string[] };

  const rpc = <S extends RpcSpec>(spec: S, body: MessageInitShape<S['request']>, tenantId = 'acme') =>
    callRpc(env.nc, spec, body, { tenantId, timeoutMs: 30_000 });

  async function http(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await request(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acmeKey.key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: text ? JSON.parse(text) : null };
  }

  async function publish(tenant: string, agent: string, turn: Turn): Promise<void> {
    await env.js.publish(Subjects.turn(tenant, agent), JSON.stringify(turn), {
      msgID: MsgIds.turn(tenant, agent, turn.sessionKey, turn.turnId),
    });
  }

  const conversationOf = async (tenant: string, agent: string, sessionKey: string) =>
    (
      await env.sql<{ id: string }>(
        `SELECT id::text FROM conversations WHERE tenant_id = $1 AND agent = $2 AND session_key = $3`,
        [tenant, agent, sessionKey],
      )
    )[0]?.id ?? '';

  async function footprint(conversationId: string): Promise<Footprint> {
    const [row] = await env.sql<Record<string, string>>(
      `SELECT (SELECT count(*) FROM messages WHERE conversation_id = $1) AS messages,
              (SELECT count(*) FROM messages m JOIN embeddings e ON e.tenant_id = m.tenant_id
                 AND e.item_kind = 'message' AND e.item_id = m.id WHERE m.conversation_id = $1) AS "messageVectors",
              (SELECT count(*) FROM summaries WHERE conversation_id = $1) AS summaries,
              (SELECT count(*) FROM summaries s JOIN embeddings e ON e.tenant_id = s.tenant_id
                 AND e.item_kind = 'summary' AND e.item_id = s.id WHERE s.conversation_id = $1) AS "summaryVectors",
              (SELECT count(*) FROM facts WHERE conversation_id = $1) AS facts,
              (SELECT count(*) FROM facts f JOIN embeddings e ON e.tenant_id = f.tenant_id
                 AND e.item_kind = 'fact' AND e.item_id = f.id WHERE f.conversation_id = $1) AS "factVectors"`,
      [conversationId],
    );
    return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)])) as unknown as Footprint;
  }

  /** Rows of acme (any table with a tenant) whose text holds the secret. */
  async function rowsHoldingSecret(): Promise<Record<string, number>> {
    const tables = await env.sql<{ table_name: string }>(
      `SELECT DISTINCT c.table_name FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_name = c.table_name AND t.table_schema = c.table_schema
        WHERE c.table_schema = 'public' AND c.column_name = 'tenant_id' AND t.table_type = 'BASE TABLE'
          AND c.table_name NOT LIKE 'embeddings_p%'`,
    );
    const found: Record<string, number> = {};
    for (const { table_name: table } of tables) {
      const n = await env.count(
        `SELECT count(*) AS n FROM ${table} x WHERE x.tenant_id = 'acme' AND x::text ILIKE $1`,
        [`%${SECRET}%`],
      );
      if (n > 0) found[table] = n;
    }
    return found;
  }

  /** Every message a stream keeps under a subject, as text (a dead letter: its original subject and message). */
  async function streamTexts(
    stream: string,
    subject: string,
  ): Promise<Array<{ subject: string; text: string }>> {
    const out: Array<{ subject: string; text: string }> = [];
    const info = await (await jetstreamManager(env.nc)).streams.info(stream).catch(() => null);
    if (!info || info.state.messages === 0) return out;
    const consumer = await env.js.consumers.get(stream, { filter_subjects: subject });
    for (;;) {
      let got = 0;
      for await (const m of await consumer.fetch({ max_messages: 500, expires: 1000 })) {
        got++;
        if (stream === Streams.deadLetters.name) {
          const letter = decodeMessage(DeadLetterSchema, m.data, { strict: false });
          out.push({ subject: letter.originalSubject, text: new TextDecoder().decode(letter.originalData) });
        } else out.push({ subject: m.subject, text: m.string() });
        if (m.info.pending === 0) return out;
      }
      if (got === 0) return out;
    }
  }

  const searchTexts = async (body: MessageInitShape<typeof Rpcs.search.request>, tenantId = 'acme') => {
    const found = await rpc(Rpcs.search, { recordAccess: false, ...body }, tenantId);
    return {
      answeredBy: found.answeredBy,
      texts: found.hits.map((h) => h.content),
      refs: found.hits.map((h) => `${h.kind}:${h.id}`),
    };
  };

  /** Hits of the erased conversation of a kind for words it never said: what only its vectors bring. */
  const nearestInErased = async (kind: string) =>
    (
      await rpc(Rpcs.search, {
        query: VECTOR_QUERY,
        recordAccess: false,
        filters: { conversationId: ids.erased, kinds: [kind] },
      })
    ).hits;

  /** How often a replica logged a line holding `text`. */
  const logged = (process: ServiceProcess, text: string) => process.output().split(text).length - 1;
  const replicas = () => replicaPair;

  async function start(name: string, extra: Record<string, string> = {}): Promise<ServiceProcess> {
    const service = await startService(name, { ...env.env, ...extra });
    services.push(service);
    await service.waitUntilReady(120_000);
    return service;
  }

  async function mcpSearch(query: string): Promise<string> {
    const client = new McpClient({ name: 'erase-spec', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${acmeKey.key}`, 'x-engram-agent': 'ada' } },
      }),
    );
    try {
      const found = await client.callTool({ name: 'memory_search', arguments: { query } });
      expect(found.isError).toBeFalsy();
      // The hits, without the first line, which repeats the query.
      return (found.content as Array<{ text?: string }>)
        .map((c) => c.text ?? '')
        .join('\n')
        .split('\n')
        .slice(1)
        .join('\n');
    } finally {
      await client.close();
    }
  }

  /** What every read path shows of the secret, for acme's ada. */
  async function whatEveryPathShows(): Promise<Record<string, string[]>> {
    const contextBlocks = await rpc(Rpcs.contextBuild, {
      agent: 'ada',
      conversationId: ids.home,
      currentMessage: 'What was my gym locker code?',
    });
    const mem0 = await http('/mem0/v3/memories/search', {
      query: `${SECRET} locker`,
      filters: { agent_id: 'ada' },
    });
    const httpSearch = await http('/v1/search', { query: SECRET, recordAccess: false });
    return {
      fulltext: (await searchTexts({ query: SECRET })).texts,
      strong: (await searchTexts({ query: SECRET, consistency: 'strong' })).texts,
      regex: (await searchTexts({ query: `quetzal[a-z]+`, mode: 'regex' })).texts,
      trigram: (await searchTexts({ query: 'quetzalcoatel', mode: 'trigram' })).texts,
      facts: (await searchTexts({ query: `${SECRET} locker code`, filters: { kinds: ['fact'] } })).texts,
      summaries: (await searchTexts({ query: SECRET, filters: { kinds: ['summary'] } })).texts,
      factsList: (await rpc(Rpcs.factsList, { agents: ['ada'], includeClosed: true, limit: 1000 })).facts.map(
        (f) => f.content,
      ),
      state: (await rpc(Rpcs.stateList, { agent: 'ada' })).entries.map((e) => `${e.key}=${e.value}`),
      browseAgent: (await rpc(Rpcs.browse, { agent: 'ada', limit: 500 })).messages.map((m) => m.content),
      // No attribute of it holds a word of it: the conversation itself, by its id, stands for the word.
      conversations: (await rpc(Rpcs.conversationsList, { agent: 'ada' })).conversations
        .filter((c) => c.id === ids.erased)
        .map(() => SECRET),
      context: contextBlocks.blocks.map((b) => b.text),
      deadLetters: (await rpc(Rpcs.deadLettersList, { limit: 500 })).letters.map((l) => l.payload),
      http: httpSearch.json.hits.map((h: { content: string }) => h.content),
      mem0: mem0.json.results.map((r: { memory: string }) => r.memory),
      mcp: [await mcpSearch(SECRET)],
    };
  }

  beforeAll(async () => {
    env = await startTestEnvironment({ label: 'erase' });
    for (const name of ['gerty', 'ingest', 'embedder', 'context-builder']) await start(name);
    // Small leaves, so three turns make a summary.
    await start('compactor', { COMPACTOR_LEAF_MESSAGES: '4', COMPACTOR_FAN_OUT: '2' });
    replicaPair = [await start('retrieval'), await start('retrieval')];
    base = `http://127.0.0.1:${(await start('api')).httpPort}`;
    dataSource = createDataSource(env.env.DATABASE_URL, { poolSize: 1, applicationName: 'erase-spec' });
    await dataSource.initialize();
    acmeKey = await new ApiKeyStore(dataSource).create('acme', 'erase-spec');

    for (const turn of ERASED) await publish('acme', 'ada', turn);
    for (const { tenant, agent, turns } of KEPT) for (const turn of turns) await publish(tenant, agent, turn);
    // A turn ingest refuses (an unknown role): its words wait in TURNS and in a dead letter.
    await publish('acme', 'ada', {
      turnId: 'e4',
      sessionKey: 'trip',
      messages: [{ role: 'robot', content: `Beep: ${SECRET} gym code 4417.` }],
    });

    await waitFor(
      'the conversations stored',
      async () => {
        ids.erased = await conversationOf('acme', 'ada', 'trip');
        ids.home = await conversationOf('acme', 'ada', 'home');
        ids.band = await conversationOf('acme', 'bob', 'band');
        ids.globex = await conversationOf('globex', 'ada', 'trip');
        return Object.values(ids).every((id) => id !== '');
      },
      60_000,
    );
    // Derived by the workers: vectors of every message, summaries and facts with theirs, the state tag.
    let last = '';
    let steady = 0;
    await waitFor(
      'the workers to derive everything and settle',
      async () => {
        const erased = await footprint(ids.erased);
        const home = await footprint(ids.home);
        const complete =
          erased.messages === 6 &&
          erased.messageVectors === 6 &&
          erased.summaries >= 1 &&
          erased.summaryVectors === erased.summaries &&
          erased.facts >= 1 &&
          erased.factVectors === erased.facts &&
          home.summaries >= 1 &&
          home.summaryVectors === home.summaries &&
          home.factVectors === home.facts &&
          (await env.count(`SELECT count(*) AS n FROM state WHERE tenant_id = 'acme' AND key = 'locker'`)) ===
            1 &&
          (await env.count(`SELECT count(*) AS n FROM messages WHERE tenant_id = 'globex'`)) === 2;
        const now = JSON.stringify([erased, home, await footprint(ids.band), await footprint(ids.globex)]);
        steady = complete && now === last ? steady + 1 : 0;
        last = now;
        return steady >= 3;
      },
      120_000,
      1000,
    );
    await waitFor(
      'the refused turn’s dead letter',
      async () => (await streamTexts(Streams.deadLetters.name, Subjects.deadLetterWildcard)).length > 0,
      30_000,
    );
    const refs = async (table: string) =>
      (
        await env.sql<{ id: string }>(`SELECT id::text FROM ${table} WHERE conversation_id = $1`, [
          ids.erased,
        ])
      ).map((r) => r.id);
    derived.message = await refs('messages');
    derived.summary = await refs('summaries');
    derived.fact = await refs('facts');
  }, 900_000);

  afterAll(async () => {
    await dataSource?.destroy();
    for (const service of services.reverse()) {
      service.kill();
      await service.exited;
    }
    await env?.stop();
  });

  it('erases one conversation: no search path finds a word of it, the rest is untouched, the audit counts it', async () => {
    // Both replicas hold acme's index before the erase.
    await waitFor(
      'both replicas to load acme',
      async () => {
        await searchTexts({ query: 'marmalade' });
        return replicas().every((r) => logged(r, 'loaded tenant acme') >= 1);
      },
      30_000,
      50,
    );
    // The vector path alone finds its messages, summary and facts: no word of the query is in them.
    for (const kind of ['message', 'summary', 'fact']) {
      const hits = await nearestInErased(kind);
      expect({ kind, found: hits.length > 0 }).toEqual({ kind, found: true });
      expect(hits.every((h) => h.signals?.fulltext === 0)).toBe(true);
      expect(hits.some((h) => (h.signals?.semantic ?? 0) > 0)).toBe(true);
    }
    // The test can fail: before the erase every path shows the secret.
    const before = await whatEveryPathShows();
    for (const [path, texts] of Object.entries(before))
      expect({ path, shows: texts.some((t) => t.includes(SECRET)) }).toEqual({ path, shows: true });
    expect(Object.keys(await rowsHoldingSecret()).length).toBeGreaterThan(0);
    const kept = {
      home: await footprint(ids.home),
      band: await footprint(ids.band),
      globex: await footprint(ids.globex),
    };
    const keptTurns = (await streamTexts(Streams.turns.name, Subjects.turnWildcard)).filter(
      (t) => !t.text.includes(SECRET) || t.subject.includes('globex'),
    ).length;

    const erased = await http('/v1/erase', { conversationId: ids.erased });
    expect(erased.status).toBe(200);
    console.log(`erased conversation ${ids.erased}: ${JSON.stringify(erased.json.erased)}`);
    expect(erased.json).toMatchObject({
      scope: 'conversation',
      agent: 'ada',
      conversationId: ids.erased,
      requestedBy: `apikey:${acmeKey.id}`,
      erased: {
        conversations: '1',
        messages: '6',
        vectors: String(derived.message.length + derived.summary.length + derived.fact.length),
        summaries: String(derived.summary.length),
        facts: String(derived.fact.length),
        stateEntries: '1',
        // The three turns and the refused one; its dead letter.
        turns: '4',
        deadLetters: '1',
      },
    });

    // Every replica dropped acme's index (the one that erased, and the other on the event).
    await waitFor(
      'both replicas to drop acme’s index',
      async () => replicas().every((r) => logged(r, 'memory of tenant acme was erased') >= 1),
      10_000,
      20,
    );
    const after = await whatEveryPathShows();
    for (const [path, texts] of Object.entries(after))
      expect({ path, shows: texts.filter((t) => t.includes(SECRET)) }).toEqual({ path, shows: [] });
    expect(after.state).not.toContainEqual(expect.stringMatching(/^locker=/));

    // Loaded again on each replica, the index holds none of it either.
    await waitFor(
      'both replicas to load acme again',
      async () => {
        await searchTexts({ query: 'marmalade' });
        return replicas().every((r) => logged(r, 'loaded tenant acme') >= 2);
      },
      30_000,
      50,
    );
    const fromIndex = await Promise.all(
      Array.from({ length: 10 }, () => searchTexts({ query: `${SECRET} gym` })),
    );
    expect(fromIndex.every((s) => s.answeredBy === 'index')).toBe(true);
    expect(fromIndex.flatMap((s) => s.texts).filter((t) => t.includes(SECRET))).toEqual([]);
    // The vector path: words it never said, restricted to it, found its nearest items before.
    for (const kind of ['message', 'summary', 'fact'])
      expect({ kind, hits: (await nearestInErased(kind)).length }).toEqual({ kind, hits: 0 });
    expect(
      (await searchTexts({ query: VECTOR_QUERY, topK: 50 })).refs.filter((ref) =>
        [
          ...derived.message.map((id) => `message:${id}`),
          ...derived.summary.map((id) => `summary:${id}`),
          ...derived.fact.map((id) => `fact:${id}`),
        ].includes(ref),
      ),
    ).toEqual([]);

    // Reads by id: the conversation and every item of it are not found.
    for (const call of [
      () => rpc(Rpcs.browse, { conversationId: ids.erased }),
      () => rpc(Rpcs.summariesList, { conversationId: ids.erased }),
      () => rpc(Rpcs.expand, { refs: [`message:${derived.message[0]}`] }),
      () => rpc(Rpcs.expand, { refs: [`summary:${derived.summary[0]}`] }),
      () => rpc(Rpcs.factsGet, { factId: derived.fact[0]! }),
    ])
      await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND' });

    // No row of acme holds the word; no turn or dead letter of acme's keeps it.
    expect(await rowsHoldingSecret()).toEqual({});
    const turns = await streamTexts(Streams.turns.name, Subjects.turnWildcard);
    expect(turns.filter((t) => t.subject.startsWith('mem.turn.acme.') && t.text.includes(SECRET))).toEqual(
      [],
    );
    expect(turns.length).toBe(keptTurns);
    const letters = await streamTexts(Streams.deadLetters.name, Subjects.deadLetterWildcard);
    expect(letters.filter((l) => l.text.includes(SECRET))).toEqual([]);

    // The rest stays: the other conversation, the other agent, the other tenant (same word and session key).
    expect({
      home: await footprint(ids.home),
      band: await footprint(ids.band),
      globex: await footprint(ids.globex),
    }).toEqual(kept);
    expect((await searchTexts({ query: 'marmalade' })).texts.length).toBeGreaterThan(0);
    expect((await searchTexts({ query: 'saxophone' })).texts.length).toBeGreaterThan(0);
    expect((await searchTexts({ query: SECRET }, 'globex')).texts).toContainEqual(
      expect.stringContaining(SECRET),
    );
    expect((await rpc(Rpcs.summariesList, { conversationId: ids.home })).summaries.length).toBe(
      kept.home.summaries,
    );

    // The audit entry: who, what, when, how many; never what was said.
    const [audit] = await env.sql<Record<string, unknown>>(
      `SELECT scope, agent, conversation_id::text, requested_by, counts, session_key, streams_erased_at IS NOT NULL AS done,
              erasures::text AS whole
         FROM erasures WHERE id = $1`,
      [erased.json.erasureId],
    );
    expect(audit).toMatchObject({
      scope: 'conversation',
      agent: 'ada',
      conversation_id: ids.erased,
      requested_by: `apikey:${acmeKey.id}`,
      counts: Object.fromEntries(Object.entries(erased.json.erased).map(([k, v]) => [k, Number(v)])),
      session_key: null,
      done: true,
    });
    expect(String(audit!['whole'])).not.toContain(SECRET);

    // Again: nothing more to erase (over NATS: no key, so the principal is "nats").
    const again = await rpc(Rpcs.erase, { conversationId: ids.erased });
    console.log(
      `erased again: ${JSON.stringify(again.erased, (_, v) => (typeof v === 'bigint' ? Number(v) : v))}`,
    );
    expect(again.requestedBy).toBe('nats');
    expect(Object.values(again.erased ?? {}).filter((n) => typeof n === 'bigint' && n !== 0n)).toEqual([]);
  });

  it('finishes an agent’s erase killed after its commit with the next erase of the tenant (engram erase)', async () => {
    // Bob is a being too: a scene in his Private root.
    await env.admin.query(`INSERT INTO beings (tenant_id, agent) VALUES ('acme', 'bob')`);
    await env.admin.query(
      `WITH root AS (
         INSERT INTO clusters (id, tenant_id, agent, name, root, parent_id)
         SELECT n.id, 'acme', 'bob', 'Private', 'private', n.id
           FROM (SELECT nextval(pg_get_serial_sequence('clusters', 'id')) AS id) n RETURNING id)
       INSERT INTO memory_nodes (tenant_id, agent, cluster_id, scene)
       SELECT 'acme', 'bob', id, '{"action": "played the saxophone at the jazz club", "actors": ["Bob"]}' FROM root`,
    );
    // Only a replica that dies right after the commit answers.
    for (const r of replicas()) r.kill();
    await Promise.all(replicas().map((r) => r.exited));
    const dying = await start('retrieval', { ENGRAM_FAILPOINTS: 'erase.after-commit' });
    await expect(
      callRpc(env.nc, Rpcs.erase, { agent: 'bob' }, { tenantId: 'acme', timeoutMs: 10_000 }),
    ).rejects.toBeInstanceOf(RpcError);
    expect(await dying.exited).toBe('SIGKILL');

    const [unfinished] = await env.sql<{ id: string; counts: Record<string, number>; done: boolean }>(
      `SELECT id::text, counts, streams_erased_at IS NOT NULL AS done FROM erasures WHERE scope = 'agent' AND agent = 'bob'`,
    );
    console.log(`bob's erasure, cut short after its commit: ${JSON.stringify(unfinished)}`);
    expect(unfinished).toMatchObject({
      done: false,
      counts: { conversations: 1, messages: 2, sceneNodes: 1, beings: 1 },
    });
    expect(await footprint(ids.band)).toMatchObject({ messages: 0, messageVectors: 0 });
    // A turn of bob's that arrived meanwhile (refused by ingest): in TURNS and in a dead letter.
    await publish('acme', 'bob', {
      turnId: 'b9',
      sessionKey: 'band',
      messages: [{ role: 'robot', content: 'Beep: saxophone solo.' }],
    });
    await waitFor(
      'bob’s late turn dead-lettered',
      async () =>
        (await streamTexts(Streams.deadLetters.name, Subjects.deadLetterWildcard)).some((l) =>
          l.text.includes('saxophone solo'),
        ),
      30_000,
    );

    replicaPair = [await start('retrieval')];
    // Any erase of the tenant finishes it first, here one of a conversation that is no more.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CLI, 'erase', '--tenant', 'acme', '--conversation', '999999999', '--json'],
      { env: { ...process.env, NATS_URL: env.env.NATS_URL } },
    );
    const cli = JSON.parse(stdout);
    expect(cli).toMatchObject({ scope: 'conversation', requestedBy: expect.stringMatching(/^cli:.+@.+/) });
    expect(Object.values(cli.erased).every((n) => n === '0')).toBe(true);
    const [finished] = await env.sql<{ counts: Record<string, number>; done: boolean }>(
      `SELECT counts, streams_erased_at IS NOT NULL AS done FROM erasures WHERE id = $1`,
      [unfinished!.id],
    );
    console.log(`bob's erasure, finished: ${JSON.stringify(finished)}`);
    expect(finished).toMatchObject({ done: true, counts: { turns: 1, deadLetters: 1 } });
    expect(
      (await streamTexts(Streams.turns.name, Subjects.turn('acme', 'bob'))).length +
        (await streamTexts(Streams.deadLetters.name, Subjects.deadLetterWildcard)).filter((l) =>
          l.subject.startsWith('mem.turn.acme.bob'),
        ).length,
    ).toBe(0);
    expect((await searchTexts({ query: 'saxophone' })).texts.filter((t) => t.includes('saxophone'))).toEqual(
      [],
    );
    expect(await env.count(`SELECT count(*) AS n FROM memory_nodes WHERE agent = 'bob'`)).toBe(0);
  });
});
