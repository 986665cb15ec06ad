import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connect,
  nkeyAuthenticator,
  PermissionViolationError,
  type NatsConnection,
} from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { EngramClient } from '@engram/client';
import {
  Rpcs,
  rpcSubject,
  runtimeSubjects,
  SERVICE_NAMES,
  servicePermissions,
  subjectMatches,
  Subjects,
  type RpcSpec,
} from '@engram/contracts';
import { callRpc, callRpcBytes, RpcError } from '@engram/messaging';
import { ApiKeyStore, createDataSource } from '@engram/store';
import {
  apiCaller,
  apiRoutes,
  connectMcp,
  rpcFields,
  startFakeOpenAiServer,
  startTestEnvironment,
  waitFor,
  type ApiCall,
  type FakeOpenAiServer,
  type OpenApiDocument,
  type TestEnvironment,
} from '@engram/testing';

/** The attacker and the victim: two tenants with runtimes, keys and memory of their own. */
const A = 'acme';
const B = 'globex';
const B_AGENT = 'gx-bot';
const B_SESSION = 'gx-session';
/** In everything globex keeps and in nothing acme sends: seen in an answer to acme, it is a leak. */
const CANARY = 'globexcanary7f3a';
/** Words of globex's memory (never the canary) that acme searches for. */
const B_WORDS = 'quokka zeppelin vault';
/** Tenants' keys for the model `cloud`: sealed in Postgres, never in a log. */
const A_MODEL_KEY = `sk-acme-${randomBytes(12).toString('hex')}`;
const B_MODEL_KEY = `sk-globex-${randomBytes(12).toString('hex')}`;

/** A publish or subscribe refused by nats-server's permissions (as nats.js reports it). */
function isPermissionViolation(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return (
    error instanceof PermissionViolationError ||
    cause instanceof PermissionViolationError ||
    /Permissions Violation/i.test(String((error as Error | undefined)?.message))
  );
}

interface TallyRow {
  attempts: number;
  successes: string[];
  outcomes: Map<string, number>;
}

/** How many attempts each surface made, how they were answered, and how many reached the victim. */
class Tally {
  private readonly rows = new Map<string, TallyRow>();

  record(surface: string, what: string, succeeded: boolean, outcome = ''): void {
    const row: TallyRow = this.rows.get(surface) ?? { attempts: 0, successes: [], outcomes: new Map() };
    row.attempts++;
    if (succeeded) row.successes.push(what);
    if (outcome) row.outcomes.set(outcome, (row.outcomes.get(outcome) ?? 0) + 1);
    this.rows.set(surface, row);
  }

  attempts(): number {
    return [...this.rows.values()].reduce((n, r) => n + r.attempts, 0);
  }

  successes(): string[] {
    return [...this.rows.values()].flatMap((r) => r.successes);
  }

  print(title: string): void {
    const lines = [...this.rows].map(
      ([surface, r]) =>
        `  ${surface.padEnd(34)} ${String(r.attempts).padStart(5)} attempts, ${r.successes.length} succeeded` +
        (r.outcomes.size ? ` (${[...r.outcomes].map(([o, n]) => `${o} ${n}`).join(', ')})` : ''),
    );
    console.log(
      `${title}: ${this.attempts()} attempts, ${this.successes().length} succeeded\n${lines.join('\n')}`,
    );
  }
}

/**
 * Isolation end to end, on the generated authenticated NATS configuration: every service as its
 * own process and NATS user (at debug log level), the agent runtimes of acme and globex with their
 * own accounts, API keys of both. acme attacks, globex is the victim.
 */
describe('isolation between tenants (every service as a process, authenticated NATS)', () => {
  let env: TestEnvironment;
  let openAi: FakeOpenAiServer;
  let modelsDir: string;
  let dataSource: DataSource;
  let call: ApiCall;
  let base: string;
  let acmeKey: string;
  let globexKey: string;
  let acme: EngramClient;
  let globex: EngramClient;
  /** Runtime connections (the runtimes' own accounts). */
  let acmeNats: NatsConnection;
  let globexNats: NatsConnection;
  /** What globex keeps, by the request fields that name it. */
  let victim: Record<string, unknown>;

  const runtimeConnection = (tenant: string, name: string) =>
    connect({
      servers: env.nats.url,
      name,
      authenticator: nkeyAuthenticator(env.natsAuth!.runtimeSeed(tenant)),
    });
  /** What nats-server refused the services' own connections (named engram-<service>-<pid>). */
  const servicesRefused = () =>
    env.nats
      .output()
      .split('\n')
      .filter((line) => /Violation/.test(line) && /:engram-/.test(line));
  /** connect() options of a user of ENGRAM (a service's). */
  const userOf = (service: string) => {
    const { NATS_USER, NATS_PASSWORD } = env.natsAuth!.credentials(service);
    return { user: NATS_USER, pass: NATS_PASSWORD };
  };

  const runtimeClient = (tenant: string, agent: string) =>
    EngramClient.connect({
      servers: env.nats.url,
      tenant,
      agent,
      connectOptions: { authenticator: nkeyAuthenticator(env.natsAuth!.runtimeSeed(tenant)) },
    });

  beforeAll(async () => {
    openAi = await startFakeOpenAiServer();
    modelsDir = mkdtempSync(join(tmpdir(), 'engram-isolation-'));
    const modelsFile = join(modelsDir, 'models.yaml');
    // The built-in model stays the default; `cloud` is a remote model tenants bring keys for.
    writeFileSync(
      modelsFile,
      `models:\n  cloud:\n    provider: openai\n    baseUrl: ${openAi.url}\n    model: fake-chat\n    completes: true\n    embeds: false\n`,
    );
    const debug = { LOG_LEVEL: 'debug' };
    env = await startTestEnvironment({
      label: 'isolation',
      natsAuthentication: { runtimes: [A, B] },
      // Eight processes starting at once on a small machine.
      readyTimeoutMs: 120_000,
      processes: [
        {
          name: 'gerty',
          env: {
            ...debug,
            GERTY_MODELS_FILE: modelsFile,
            ENGRAM_SECRET_KEY: randomBytes(32).toString('base64'),
          },
        },
        { name: 'ingest', env: debug },
        { name: 'embedder', env: debug },
        { name: 'compactor', env: debug },
        { name: 'retrieval', env: debug },
        { name: 'context-builder', env: debug },
        // On demand only: no scheduled patrol changes globex's memory while acme attacks it.
        { name: 'patrol', env: { ...debug, PATROL_EVERY_MS: '0' } },
        { name: 'api', env: { ...debug, API_RATE_LIMIT_PER_MINUTE: '0' } },
      ],
    });
    base = `http://127.0.0.1:${env.process('api').httpPort}`;
    call = apiCaller(base);
    dataSource = createDataSource(env.env.DATABASE_URL, { poolSize: 1, applicationName: 'isolation-spec' });
    await dataSource.initialize();
    const keys = new ApiKeyStore(dataSource);
    acmeKey = (await keys.create(A, 'spec')).key;
    globexKey = (await keys.create(B, 'spec')).key;
    acme = await runtimeClient(A, 'bot');
    globex = await runtimeClient(B, B_AGENT);
    acmeNats = await runtimeConnection(A, 'acme-runtime');
    globexNats = await runtimeConnection(B, 'globex-runtime');
    victim = await seedVictim();
  }, 480_000);

  afterAll(async () => {
    await Promise.all([acme?.close(), globex?.close(), acmeNats?.close(), globexNats?.close()]);
    await dataSource?.destroy();
    await env?.stop();
    await openAi?.close();
    if (modelsDir) rmSync(modelsDir, { recursive: true, force: true });
  });

  /** globex's memory, made by its own runtime: every kind of thing acme will try to reach. */
  async function seedVictim(): Promise<Record<string, unknown>> {
    const said = (i: number) => `The ${CANARY} ${B_WORDS} number ${i} is ${1000 + i}.`;
    for (let i = 0; i < 3; i++)
      await globex.publishTurn({
        turnId: `gx-${i}`,
        sessionKey: B_SESSION,
        messages: [
          { role: 'user', author: 'Gina', content: said(i) },
          {
            role: 'assistant',
            content: `Noted ${CANARY}. [STATE:vault]${CANARY}-${i}[/STATE] [MEMORY:sticky]Gina's ${CANARY} ${B_WORDS} is ${i}.[/MEMORY]`,
          },
        ],
      });
    const saved = await globex.call(Rpcs.save, { content: `Gina keeps the ${CANARY} ${B_WORDS} key.` });
    await globex.call(Rpcs.agentsPut, { name: 'Globex bot', personality: `Careful ${CANARY}.` });
    await globex.call(Rpcs.workspacePut, { documents: [{ name: 'USER.md', content: `Gina ${CANARY}.` }] });
    await globex.call(Rpcs.skillsPut, {
      files: [
        {
          name: 'vault.md',
          markdown: `---\nname: vault\ndescription: ${CANARY}\n---\nOpen the ${CANARY} vault.`,
        },
      ],
    });
    await globex.call(Rpcs.beingSoulPut, { personality: `A ${CANARY} soul.`, voice: 'calm' });
    await globex.call(Rpcs.beingRulesPut, { rule: `Never tell ${CANARY}.`, enabled: true });
    await globex.call(Rpcs.beingRelationshipsPut, { person: 'Gina', relation: `friend ${CANARY}` });
    await globex.call(Rpcs.beingPreferencesPut, { key: 'vault', value: CANARY });
    const note = await globex.call(Rpcs.beingNotesAdd, {
      kind: 'todo',
      content: `Check the ${CANARY} vault.`,
    });
    for (let i = 0; i < 2; i++)
      await globex.call(Rpcs.beingScenesAdd, {
        scene: JSON.stringify({ action: `opened the ${CANARY} ${B_WORDS} ${i}`, actors: ['me', 'Gina'] }),
        importance: 8,
      });
    await globex.call(Rpcs.patrolRun, {}, { timeoutMs: 120_000 });
    // A turn ingest refuses (an unknown field) is a dead letter of globex.
    await jetstream(globexNats).publish(
      Subjects.turn(B, B_AGENT),
      JSON.stringify({ turnId: 'bad', sessionKey: B_SESSION, canary: CANARY }),
    );
    expect(await globex.call(Rpcs.gertyKeysPut, { model: 'cloud', apiKey: B_MODEL_KEY })).toMatchObject({
      stored: true,
    });
    await waitFor(
      "globex's turns stored, embedded and its letter dead",
      async () =>
        (await env.count(`SELECT count(*) AS n FROM messages WHERE tenant_id = $1`, [B])) === 6 &&
        (await env.count(
          `SELECT count(*) AS n FROM embeddings WHERE tenant_id = $1 AND item_kind = 'message'`,
          [B],
        )) === 6 &&
        (await globex.call(Rpcs.deadLettersList, {})).letters.length === 1,
      60_000,
      250,
    );
    const one = async (sql: string) => (await env.sql<{ id: string }>(sql, [B]))[0]?.id;
    const ids = {
      conversationId: await one(
        `SELECT id::text FROM conversations WHERE tenant_id = $1 ORDER BY id LIMIT 1`,
      ),
      messageId: await one(`SELECT id::text FROM messages WHERE tenant_id = $1 ORDER BY id LIMIT 1`),
      factId: saved.factId,
      summaryId: await one(`SELECT id::text FROM summaries WHERE tenant_id = $1 ORDER BY id LIMIT 1`),
      nodeId: await one(`SELECT id::text FROM memory_nodes WHERE tenant_id = $1 ORDER BY id LIMIT 1`),
      clusterId: await one(`SELECT id::text FROM clusters WHERE tenant_id = $1 ORDER BY id LIMIT 1`),
      noteId: note.id,
      sequence: String((await globex.call(Rpcs.deadLettersList, {})).letters[0]!.sequence),
    };
    expect(ids).toMatchObject({
      conversationId: expect.any(String),
      messageId: expect.any(String),
      nodeId: expect.any(String),
    });
    const refs = [
      `message:${ids.messageId}`,
      `fact:${ids.factId}`,
      ...(ids.summaryId ? [`summary:${ids.summaryId}`] : []),
    ];
    return {
      // RPC and HTTP request fields (JSON names), MCP arguments and mem0 fields.
      agent: B_AGENT,
      agents: [B_AGENT],
      sessionKey: B_SESSION,
      conversationId: ids.conversationId,
      aroundMessageId: ids.messageId,
      sourceMessageIds: [ids.messageId],
      refs,
      ref: refs[0],
      factId: ids.factId,
      nodeId: ids.nodeId,
      nodeIds: [ids.nodeId],
      clusterId: ids.clusterId,
      cluster: ids.clusterId,
      noteIds: [ids.noteId],
      sequence: ids.sequence,
      query: B_WORDS,
      keywords: B_WORDS.split(' '),
      message: B_WORDS,
      currentMessage: B_WORDS,
      keys: ['vault'],
      agent_id: B_AGENT,
      user_id: 'Gina',
      run_id: B_SESSION,
      filters: { agent_id: B_AGENT },
      id: ids.factId,
      type: 'agent',
      name: B_AGENT,
    };
  }

  it('runs every service as its own NATS user: runtimes’ turns go through to memory, no service is refused anything', async () => {
    await acme.publishTurn({
      turnId: 'a-1',
      sessionKey: 'a-chat',
      messages: [
        { role: 'user', content: 'My heron is called Percival.' },
        { role: 'assistant', content: 'Percival the heron, noted.' },
      ],
    });
    await waitFor(
      "acme's turn to be searchable by acme",
      async () => (await acme.search({ query: 'heron Percival' })).hits.length > 0,
      60_000,
      250,
    );
    expect((await globex.search({ query: B_WORDS })).hits.length).toBeGreaterThan(0);
    expect((await globex.call(Rpcs.beingGet, {})).clusters.length).toBeGreaterThan(0);
    expect(servicesRefused()).toEqual([]);
  });

  it('lets a runtime of acme publish and request only as acme: every subject of globex is refused', async () => {
    const tally = new Tally();
    const js = jetstream(acmeNats);
    // acme's own: a turn and an RPC go through.
    expect(
      (
        await js.publish(
          Subjects.turn(A, 'bot'),
          JSON.stringify({ turnId: 'raw', sessionKey: 's', messages: [] }),
        )
      ).stream,
    ).toBe('TURNS');
    expect(await callRpc(acmeNats, Rpcs.statsGet, {}, { tenantId: A })).toBeDefined();

    const refused = async (surface: string, what: string, attempt: () => Promise<unknown>) => {
      try {
        await attempt();
        tally.record(surface, what, true);
      } catch (error) {
        tally.record(surface, `${what}: ${String(error)}`, !isPermissionViolation(error));
      }
    };
    for (const agent of [B_AGENT, 'bot', '*'])
      await refused('publish a turn of globex', agent, () =>
        js.publish(
          `mem.turn.${B}.${agent === '*' ? 'x' : agent}`,
          JSON.stringify({ turnId: 't', sessionKey: 's' }),
        ),
      );
    for (const spec of Object.values<RpcSpec>(Rpcs)) {
      const subject = spec.tenantScoped ? rpcSubject(spec, B) : spec.subject;
      await refused('request an RPC of globex (or Gerty)', subject, () =>
        acmeNats.request(subject, '{}', { timeout: 5000 }),
      );
    }
    // Nor anything of the services' own: their events, the JetStream API, heartbeats.
    for (const subject of [
      Subjects.messageStored(B),
      Subjects.factUpserted(A),
      '$JS.API.STREAM.INFO.TURNS',
      '$JS.API.CONSUMER.MSG.NEXT.TURNS.ingest-turns',
      Subjects.heartbeat('api'),
      Subjects.apiKeyRevoked,
    ])
      await refused('publish a service subject', subject, () =>
        acmeNats.request(subject, '{}', { timeout: 5000 }),
      );
    for (const subject of [`mem.turn.${B}.>`, `mem.rpc.search.${B}`, 'mem.>', '>']) {
      await refused('subscribe to globex', subject, async () => {
        const sub = acmeNats.subscribe(subject);
        await acmeNats.flush();
        const closed = await Promise.race([
          sub.closed,
          new Promise((r) => setTimeout(() => r('open'), 2000)),
        ]);
        if (closed instanceof Error) throw closed;
        sub.unsubscribe();
      });
    }
    tally.print('a runtime of acme as globex over NATS');
    expect(tally.successes()).toEqual([]);
    expect(tally.attempts()).toBeGreaterThan(Object.keys(Rpcs).length);
  }, 300_000);

  it('gives each service user only what the topology gives it: none publishes a runtime’s turn or requests an RPC it does not call', async () => {
    const tally = new Tally();
    for (const service of SERVICE_NAMES) {
      const allowed = servicePermissions(service).publish;
      const nc = await connect({ servers: env.nats.url, name: `probe-${service}`, ...userOf(service) });
      try {
        for (const subject of runtimeSubjects(A).map((s) => s.replace('.*', '.bot'))) {
          if (allowed.some((pattern) => subjectMatches(pattern, subject))) continue;
          try {
            await nc.request(subject, '{}', { timeout: 5000 });
            tally.record(service, subject, true);
          } catch (error) {
            tally.record(service, `${subject}: ${String(error)}`, !isPermissionViolation(error));
          }
        }
      } finally {
        await nc.close();
      }
    }
    tally.print("services' users on runtime subjects they do not serve or call");
    expect(tally.successes()).toEqual([]);
    // A turn is published by runtimes and the api edge only (and re-driven by retrieval's dead-letter box).
    expect(
      SERVICE_NAMES.filter((s) =>
        servicePermissions(s).publish.some((p) => subjectMatches(p, Subjects.turn(A, 'bot'))),
      ),
    ).toEqual(['retrieval', 'api']);
  }, 300_000);

  /** globex's rows in every tenant table (the outbox aside: its rows come and go), as one digest. */
  async function victimDigest(): Promise<string> {
    const tables = await env.sql<{ table: string }>(
      `SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> 'outbox'
          AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
        ORDER BY 1`,
    );
    const parts = tables.map(
      ({ table }) =>
        `SELECT '${table}' || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') FROM "${table}" t WHERE tenant_id = $1`,
    );
    const rows = await env.sql<{ d: string }>(
      `SELECT md5(string_agg(d, ',')) AS d FROM (${parts.join(' UNION ALL ')}) x(d)`,
      [B],
    );
    return rows[0]!.d;
  }

  /** Request bodies of a surface that name globex's things: nothing, everything it has fields for, each alone. */
  function bodiesFor(fields: readonly string[]): Record<string, unknown>[] {
    const named = fields.filter((f) => f in victim);
    // Free text a write needs, written by acme (never the canary).
    const text = Object.fromEntries(
      fields
        .filter(
          (f) =>
            [
              'content',
              'reason',
              'rule',
              'person',
              'relation',
              'text',
              'personality',
              'scene',
              'value',
              'key',
            ].includes(f) && !(f in victim),
        )
        .map((f) => [
          f,
          f === 'scene' ? JSON.stringify({ action: 'acme was here', actors: ['me'] }) : 'written by acme',
        ]),
    );
    const all = { ...text, ...Object.fromEntries(named.map((f) => [f, victim[f]])) };
    return [{}, all, ...(named.length > 1 ? named.map((f) => ({ ...text, [f]: victim[f] })) : [])];
  }

  it('lets acme, with its key, its runtime and an MCP session, neither read nor change globex’s memory through any route, RPC or tool', async () => {
    const tally = new Tally();
    // Quiet first: globex's own work (vectors, summaries, facts) has settled.
    await waitFor(
      'globex’s memory to settle',
      async () => {
        const first = await victimDigest();
        await new Promise((r) => setTimeout(r, 3000));
        return first === (await victimDigest());
      },
      90_000,
      0,
    );
    const settled = await victimDigest();
    /** An attempt succeeded if its answer shows globex's memory or globex's memory changed. */
    const judge = async (surface: string, what: string, answer: string, outcome: string) => {
      const changed = (await victimDigest()) !== settled;
      tally.record(surface, `${what} → ${answer.slice(0, 200)}`, answer.includes(CANARY) || changed, outcome);
    };

    // HTTP: every route of the api, with acme's key, naming globex's things.
    const { json: doc } = await call('GET', '/openapi.json');
    for (const route of apiRoutes(doc as OpenApiDocument)) {
      const path = route.path.replace(/\{(\w+)\}/g, (_, param: string) =>
        encodeURIComponent(String(victim[param])),
      );
      const query = route.method === 'DELETE' && !route.path.includes('{') ? `?agent_id=${B_AGENT}` : '';
      const bodies =
        route.method === 'POST' || route.method === 'PUT' ? bodiesFor(route.fields) : [undefined];
      for (const body of bodies) {
        const answer = await call(route.method, `${path}${query}`, {
          key: acmeKey,
          ...(body !== undefined && {
            body: route.path.startsWith('/v1/turns')
              ? { turnId: 'x', sessionKey: B_SESSION, messages: [{ role: 'user', content: 'acme' }], ...body }
              : body,
          }),
        });
        await judge(
          'HTTP route',
          `${route.method} ${route.path} ${JSON.stringify(body)}`,
          `${answer.status} ${JSON.stringify(answer.json)}`,
          String(answer.status),
        );
      }
    }
    // NATS: every RPC on acme's own subjects (all a runtime of acme may request), naming globex's things.
    for (const spec of Object.values<RpcSpec>(Rpcs).filter((s) => s.tenantScoped)) {
      for (const body of bodiesFor(rpcFields(spec))) {
        let answer: string;
        let outcome = 'answered';
        try {
          const reply = await callRpcBytes(acmeNats, spec, new TextEncoder().encode(JSON.stringify(body)), {
            tenantId: A,
            timeoutMs: 120_000,
          });
          answer = new TextDecoder().decode(reply);
        } catch (error) {
          outcome = error instanceof RpcError ? error.code : 'failed';
          answer = error instanceof RpcError ? `${error.code} ${error.message}` : String(error);
        }
        await judge('NATS RPC (runtime of acme)', `${spec.subject} ${JSON.stringify(body)}`, answer, outcome);
      }
    }
    // MCP: every tool, with acme's key, as acme's agent and as an agent named like globex's.
    for (const agent of ['bot', B_AGENT]) {
      const mcp = await connectMcp(base, acmeKey, agent);
      try {
        for (const tool of (await mcp.listTools()).tools) {
          for (const args of bodiesFor(Object.keys(tool.inputSchema.properties ?? {}))) {
            let answer: string;
            let outcome: string;
            try {
              const result = await mcp.callTool({ name: tool.name, arguments: args });
              outcome = result.isError ? 'tool error' : 'answered';
              answer = JSON.stringify(result);
            } catch (error) {
              outcome = 'refused';
              answer = String(error);
            }
            await judge('MCP tool', `${agent} ${tool.name} ${JSON.stringify(args)}`, answer, outcome);
          }
        }
      } finally {
        await mcp.close();
      }
    }
    tally.print('acme reaching for globex');
    expect(tally.successes()).toEqual([]);
    // The judge can tell: globex's own key reads the canary, and globex's own write changes the digest.
    expect(
      JSON.stringify((await call('POST', '/v1/search', { key: globexKey, body: { query: B_WORDS } })).json),
    ).toContain(CANARY);
    await globex.call(Rpcs.beingNotesAdd, { kind: 'note', content: 'globex writes' });
    expect(await victimDigest()).not.toBe(settled);
    // globex still has it all, and reads it with its own key.
    expect(
      (await call('POST', '/v1/facts/get', { key: globexKey, body: { factId: victim['factId'] } })).json
        .current.content,
    ).toContain(CANARY);
  }, 900_000);

  it('lets the services’ database role, acting for acme, see, change, remove or add no row of globex', async () => {
    const tally = new Tally();
    const app = new Client({ connectionString: env.env.DATABASE_URL });
    await app.connect();
    try {
      const tables = await env.sql<{ table: string }>(
        `SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
            AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
          ORDER BY 1`,
      );
      /** A statement as the app role with acme set, rolled back: its rows, or its error. */
      const asAcme = async (sql: string, params: unknown[] = []) => {
        await app.query('BEGIN');
        try {
          await app.query(`SELECT set_config('engram.tenant_id', $1, true)`, [A]);
          const result = await app.query(sql, params);
          return { rows: result.rowCount ?? 0, error: null as string | null };
        } catch (error) {
          return { rows: 0, error: (error as Error).message };
        } finally {
          await app.query('ROLLBACK');
        }
      };
      const record = (op: string, table: string, r: { rows: number; error: string | null }) =>
        tally.record(
          op,
          `${table}: ${r.rows} rows ${r.error ?? ''}`,
          r.rows > 0,
          r.error ? 'refused' : '0 rows',
        );
      const withoutVictimRows: string[] = [];
      const withoutTemplate: string[] = [];
      for (const { table } of tables) {
        if ((await env.count(`SELECT count(*) AS n FROM "${table}" WHERE tenant_id = $1`, [B])) === 0)
          withoutVictimRows.push(table);
        record(
          'SELECT globex’s rows',
          table,
          await asAcme(`SELECT 1 FROM "${table}" WHERE tenant_id = $1`, [B]),
        );
        record(
          'SELECT any but acme’s',
          table,
          await asAcme(`SELECT 1 FROM "${table}" WHERE tenant_id <> $1`, [A]),
        );
        record(
          'UPDATE globex’s rows',
          table,
          await asAcme(`UPDATE "${table}" SET tenant_id = tenant_id WHERE tenant_id = $1`, [B]),
        );
        record(
          'DELETE globex’s rows',
          table,
          await asAcme(`DELETE FROM "${table}" WHERE tenant_id = $1`, [B]),
        );
        // A copy of one of its rows (any tenant's) made globex's, generated columns aside.
        const template = (
          await env.sql<{ row: object }>(`SELECT to_jsonb(t) AS row FROM "${table}" t LIMIT 1`)
        )[0]?.row;
        if (!template) {
          withoutTemplate.push(table);
          continue;
        }
        const columns = await env.sql<{ name: string }>(
          `SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped
             AND attgenerated = '' ORDER BY attnum`,
          [`"${table}"`],
        );
        const list = columns.map((c) => `"${c.name}"`).join(', ');
        const inserted = await asAcme(
          `INSERT INTO "${table}" (${list}) OVERRIDING SYSTEM VALUE
             SELECT ${list} FROM jsonb_populate_record(NULL::"${table}", $1::jsonb || jsonb_build_object('tenant_id', $2::text))`,
          [JSON.stringify(template), B],
        );
        // Refused by the tenant policy itself, not by some other constraint.
        tally.record(
          'INSERT a row of globex',
          `${table}: ${inserted.error}`,
          inserted.rows > 0 || !/row-level security/.test(inserted.error ?? ''),
          inserted.error ? 'refused by row-level security' : 'inserted',
        );
      }
      /** Names, the vector partitions counted rather than listed. */
      const named = (list: string[]) => {
        const partitions = list.filter((t) => /^embeddings_p\d+$/.test(t)).length;
        return [...list.filter((t) => !/^embeddings_p\d+$/.test(t)), `${partitions} vector partitions`].join(
          ', ',
        );
      };
      tally.print(
        `the app role acting for acme on globex's rows: ${tables.length} tables (vector partitions included); ` +
          `without globex rows: ${named(withoutVictimRows)}; without a row to copy: ${named(withoutTemplate)}`,
      );
      expect(tally.successes()).toEqual([]);
      expect(tables.length - withoutVictimRows.length).toBeGreaterThan(20);
    } finally {
      await app.end();
    }
  });

  it('keeps tenants’ model keys sealed in Postgres and out of every log, at debug level', async () => {
    expect(
      await callRpc(acmeNats, Rpcs.gertyKeysPut, { model: 'cloud', apiKey: A_MODEL_KEY }, { tenantId: A }),
    ).toMatchObject({ stored: true });
    // Used: Gerty opens acme's key for acme's call, globex's for globex's (a service asks, as Gerty's callers do).
    openAi.requests.length = 0;
    for (const tenantId of [A, B])
      await callRpc(
        env.nc,
        Rpcs.gertyComplete,
        { model: 'cloud', tenantId, messages: [{ role: 'user', content: 'hi' }] },
        { timeoutMs: 30_000 },
      );
    // And an endpoint that echoes the key back in its error: Gerty retries, and logs why (redacted).
    openAi.script({ kind: 'echo-auth', status: 503 });
    await callRpc(
      env.nc,
      Rpcs.gertyComplete,
      { model: 'cloud', tenantId: A, messages: [{ role: 'user', content: 'hi' }] },
      { timeoutMs: 30_000 },
    );
    expect(openAi.requests.map((r) => r.headers.authorization)).toEqual([
      `Bearer ${A_MODEL_KEY}`,
      `Bearer ${B_MODEL_KEY}`,
      `Bearer ${A_MODEL_KEY}`,
      `Bearer ${A_MODEL_KEY}`,
    ]);
    expect(env.process('gerty').output()).toMatch(/answered 503: Incorrect API key provided: \[redacted\]/);

    const sealed = await env.sql<{ tenant_id: string; ciphertext: Buffer; row: string }>(
      `SELECT tenant_id, ciphertext, t::text AS row FROM tenant_secrets t`,
    );
    expect(sealed.map((r) => r.tenant_id).sort()).toEqual([A, B]);
    const forms = (key: string) => [
      key,
      Buffer.from(key).toString('hex'),
      Buffer.from(key).toString('base64'),
      key.slice(-16),
    ];
    for (const row of sealed)
      for (const form of [...forms(A_MODEL_KEY), ...forms(B_MODEL_KEY)]) {
        expect(row.ciphertext.includes(Buffer.from(form))).toBe(false);
        expect(row.row).not.toContain(form);
      }

    const logs = [...SERVICE_NAMES.map((s) => env.process(s).output()), env.nats.output()];
    const lines = logs.join('\n');
    for (const form of [...forms(A_MODEL_KEY), ...forms(B_MODEL_KEY)]) expect(lines).not.toContain(form);
    console.log(
      `model keys: 2 tenants' keys sealed (${sealed.length} rows), used 4 times; ${lines.split('\n').length} log lines of ${logs.length} processes at debug level hold neither key`,
    );
  });

  it('refused the services nothing they did throughout, over HTTP, MCP and NATS', () => {
    expect(servicesRefused()).toEqual([]);
  });
});
