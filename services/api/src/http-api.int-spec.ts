import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { request } from 'undici';
import { DataSource } from 'typeorm';
import { Rpcs } from '@engram/contracts';
import { callRpcBytes, RpcError } from '@engram/messaging';
import { ApiKeyStore, createDataSource } from '@engram/store';
import {
  apiCaller,
  apiRoutes,
  connectMcp,
  rpcFields,
  startService,
  startTestEnvironment,
  waitFor,
  type ApiAnswer as Answer,
  type ApiCall,
  type OpenApiDocument,
  type ServiceProcess,
  type TestEnvironment,
} from '@engram/testing';

/**
 * The HTTP API as a user meets it: the api service and the services behind it as their own
 * processes (built dist), real NATS and Postgres, keys made with the CLI's store.
 */
describe('HTTP API (api and every service behind it as processes)', () => {
  let env: TestEnvironment;
  let dataSource: DataSource;
  let keys: ApiKeyStore;
  let base: string;
  let acme: string;
  let globex: string;
  let call: ApiCall;

  const post = (path: string, key: string, body?: unknown) => call('POST', path, { key, body });

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'http-api',
      processes: ['gerty', 'ingest', 'embedder', 'retrieval', 'context-builder', 'patrol', 'api'],
    });
    base = `http://127.0.0.1:${env.process('api').httpPort}`;
    call = apiCaller(base);
    dataSource = createDataSource(env.env.DATABASE_URL, { poolSize: 1, applicationName: 'http-api-spec' });
    await dataSource.initialize();
    keys = new ApiKeyStore(dataSource);
    acme = (await keys.create('acme', 'spec')).key;
    globex = (await keys.create('globex', 'spec')).key;
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await env?.stop();
  });

  it('refuses a request without a live key as 401 problem+json, and answers health without one', async () => {
    for (const answer of [
      await call('POST', '/v1/stats/get', { body: {} }),
      await call('POST', '/v1/stats/get', { key: `egm_${'x'.repeat(43)}`, body: {} }),
      await call('POST', '/v1/stats/get', { key: acme, scheme: 'Token', body: {} }),
      await call('POST', '/v1/stats/get', { key: 'not-a-key', body: {} }),
    ]) {
      expect(answer.status).toBe(401);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="engram"');
      expect(answer.json).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', title: 'Unauthenticated' });
    }
    expect((await call('GET', '/health/ready')).status).toBe(200);
  });

  it('publishes a turn idempotently and finds it by search, for the key’s tenant only', async () => {
    const turn = {
      turnId: 'http-1',
      sessionKey: 'http-chat',
      messages: [
        { role: 'user', author: 'Ada', content: 'My bicycle is a green Brompton folding bike.' },
        { role: 'assistant', content: 'A green Brompton, noted.' },
      ],
    };
    const first = await call('POST', '/v1/turns/bot', { key: acme, body: turn });
    expect(first.status).toBe(202);
    expect(first.json).toMatchObject({ stream: 'TURNS', duplicate: false });
    const again = await call('POST', '/v1/turns/bot', { key: acme, body: turn });
    expect(again.json).toMatchObject({ stream: 'TURNS', seq: first.json.seq, duplicate: true });

    let hits: Array<{ content: string; kind: string }> = [];
    await waitFor(
      'the turn to be searchable',
      async () => {
        const found = await post('/v1/search', acme, {
          query: 'Brompton bicycle',
          filters: { kinds: ['message'] },
        });
        expect(found.status).toBe(200);
        hits = found.json.hits;
        return hits.length > 0;
      },
      30_000,
    );
    expect(hits[0]!.content).toContain('Brompton');
    const stored = await env.count(`SELECT count(*) AS n FROM messages WHERE tenant_id = 'acme'`);
    expect(stored).toBe(2);

    const other = await post('/v1/search', globex, { query: 'Brompton bicycle' });
    expect(other.status).toBe(200);
    expect(other.json.hits).toEqual([]);
  });

  it('searches as of a past moment (asOf, an RFC 3339 date-time): nothing said after it is found', async () => {
    const { json: doc } = await call('GET', '/openapi.json');
    for (const request of ['SearchRequest', 'ContextBuildRequest'])
      expect(doc.components.schemas[request].properties.asOf).toEqual({
        type: 'string',
        format: 'date-time',
      });
    const search = { query: 'Brompton bicycle', filters: { kinds: ['message'] }, recordAccess: false };
    const now = await post('/v1/search', acme, search);
    expect(now.json.hits.map((h: { content: string }) => h.content)).toContain(
      'My bicycle is a green Brompton folding bike.',
    );
    const then = await post('/v1/search', acme, { ...search, asOf: '2026-01-01T00:00:00Z' });
    expect(then.status).toBe(200);
    expect(then.json.hits).toEqual([]);
    const bad = await post('/v1/search', acme, { ...search, asOf: 'last week' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      code: 'INVALID_ARGUMENT',
      errors: [
        {
          field: 'asOf',
          detail: 'asOf must be an RFC 3339 date-time such as "2026-03-01T12:00:00Z" (got "last week")',
        },
      ],
    });
  });

  it('saves and forgets a fact; an unknown fact is 404', async () => {
    const saved = await post('/v1/save', acme, {
      agent: 'bot',
      content: 'Ada’s locker code is 4411.',
      category: 'fact',
    });
    expect(saved.status).toBe(200);
    expect(saved.json.factId).toMatch(/^[0-9]+$/);
    const forgot = await post('/v1/forget', acme, { factId: saved.json.factId, reason: 'asked to' });
    expect(forgot.status).toBe(200);
    const missing = await post('/v1/forget', globex, { factId: saved.json.factId });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('answers bad input with a clear 4xx problem, never a 5xx, and stores nothing', async () => {
    const before = await env.count(`SELECT count(*) AS n FROM messages`);
    const cases: Array<[Promise<Answer>, number, string]> = [
      [call('POST', '/v1/search', { key: acme, raw: '{"query": ' }), 400, 'INVALID_ARGUMENT'],
      [post('/v1/search', acme, { query: 'x', topk: 3 }), 400, 'INVALID_ARGUMENT'],
      [post('/v1/search', acme, { query: 42 }), 400, 'INVALID_ARGUMENT'],
      [post('/v1/search', acme, [1, 2]), 400, 'INVALID_ARGUMENT'],
      [
        post('/v1/turns/bot', acme, { turnId: 't', messages: [{ role: 'user', content: 'hi' }] }),
        400,
        'INVALID_ARGUMENT',
      ],
      [
        post('/v1/turns/bot', acme, {
          turnId: 't',
          sessionKey: 's',
          messages: [{ role: 'robot', content: 'hi' }],
        }),
        400,
        'INVALID_ARGUMENT',
      ],
      [
        post('/v1/turns/bot', acme, { turnId: 't', sessionKey: 's', messages: [], extra: 1 }),
        400,
        'INVALID_ARGUMENT',
      ],
      [
        post('/v1/turns/no.dots', acme, {
          turnId: 't',
          sessionKey: 's',
          messages: [{ role: 'user', content: 'hi' }],
        }),
        400,
        'INVALID_ARGUMENT',
      ],
      [post('/v1/nothing/here', acme, {}), 404, 'NOT_FOUND'],
      [
        call('POST', '/v1/search', { key: acme, raw: JSON.stringify({ query: 'x'.repeat(1_100_000) }) }),
        413,
        'PAYLOAD_TOO_LARGE',
      ],
      [
        call('POST', '/v1/search', {
          key: acme,
          raw: 'query=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
    ];
    for (const [pending, status, code] of cases) {
      const answer = await pending;
      expect({ status: answer.status, code: answer.json.code }).toEqual({ status, code });
      expect(answer.headers['content-type']).toContain('application/problem+json');
      expect(typeof answer.json.detail).toBe('string');
    }
    expect(await env.count(`SELECT count(*) AS n FROM messages`)).toBe(before);
  });

  it('answers every oversized body with its 413 problem, never a broken pipe', async () => {
    // Refused before it was read, a body still being sent met a closed connection (EPIPE) in
    // about 2 % of tries on this machine; 200 tries found it almost every time.
    const raw = JSON.stringify({ query: 'x'.repeat(1_100_000) });
    const outcomes: Record<string, number> = {};
    for (let i = 0; i < 200; i++) {
      const outcome = await call('POST', '/v1/search', { key: acme, raw }).then(
        (answer) => `${answer.status} ${(answer.json as { code?: string }).code}`,
        (error: Error) => error.message,
      );
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    expect(outcomes).toEqual({ '413 PAYLOAD_TOO_LARGE': 200 });
  });

  it('answers every route’s malformed JSON, unknown field, wrong type and missing fields with a 4xx, never a 5xx', async () => {
    const { json: doc } = await call('GET', '/openapi.json');
    const before = await env.count(
      `SELECT (SELECT count(*) FROM messages) + (SELECT count(*) FROM facts) AS n`,
    );
    const refused: string[] = [];
    const paths = (doc as OpenApiDocument).paths;
    const schemas = doc.components.schemas as Record<
      string,
      { properties: Record<string, { type?: unknown }> }
    >;
    for (const [path, item] of Object.entries(paths)) {
      // GET /v1/health takes no body to get wrong.
      if (!item.post) continue;
      const route = path.replace('{agent}', 'bot');
      const ref = item.post.requestBody.content['application/json']!.schema.$ref;
      const properties = schemas[ref.split('/').pop()!]!.properties;
      // A wrong type for the request's first field (requests without fields have none to get wrong).
      const wrongType = Object.entries(properties)
        .slice(0, 1)
        .map(([field, { type }]) => ({
          [field]:
            type === 'string'
              ? 12
              : type === 'boolean'
                ? 'yes'
                : type === 'array' || type === 'object'
                  ? 'x'
                  : 'twelve',
        }));
      for (const raw of [
        '{"unterminated": ',
        JSON.stringify({ notAField: 1 }),
        ...wrongType.map((b) => JSON.stringify(b)),
      ]) {
        const answer = await call('POST', route, { key: acme, raw });
        if (answer.status !== 400 || answer.json.code !== 'INVALID_ARGUMENT')
          refused.push(`${route} ${raw}: ${answer.status} ${answer.json.code}`);
      }
      // Every field missing: the route's own answer (a 400 naming what is required, or a default), never a 5xx.
      const empty = await call('POST', route, { key: acme, raw: '{}' });
      if (empty.status >= 500) refused.push(`${route} {}: ${empty.status} ${empty.json.code}`);
    }
    expect(refused).toEqual([]);
    expect(
      await env.count(`SELECT (SELECT count(*) FROM messages) + (SELECT count(*) FROM facts) AS n`),
    ).toBe(before);
  });

  it('answers fuzzed bodies on every route with an answer or a 4xx problem, never a 5xx', async () => {
    const fuzz = (await keys.create('fuzz', 'spec')).key;
    const { json: doc } = await call('GET', '/openapi.json');
    // Every route with a body (the OpenAPI document's and mem0's, whose fields are what its clients send).
    const routes = apiRoutes(doc as OpenApiDocument)
      .filter((route) => route.method === 'POST')
      .map((route) => ({ path: route.path.replace('{agent}', 'bot'), fields: [...route.fields] }));
    const text = fc.string({ unit: 'binary', maxLength: 80 });
    /** Bodies a hostile client sends: the route's own fields with values of any type, any JSON, no JSON. */
    const bodiesFor = (fields: string[]) =>
      fc.oneof(
        fc
          .dictionary(fc.constantFrom(...fields, 'extra'), fc.anything({ maxDepth: 2 }), { maxKeys: 4 })
          .map((body) => JSON.stringify(body)),
        fc.json({ maxDepth: 3 }),
        text,
        fc.uint8Array({ maxLength: 200 }),
      );
    const failures: string[] = [];
    let tried = 0;
    for (const [i, route] of routes.entries()) {
      for (const raw of fc.sample(bodiesFor(route.fields), { numRuns: 25, seed: 18 + i })) {
        tried++;
        const answer = await call('POST', route.path, { key: fuzz, raw });
        const problem =
          answer.status < 400 ||
          (String(answer.headers['content-type']).includes('problem+json') &&
            typeof answer.json.detail === 'string');
        if (answer.status >= 500 || !problem)
          failures.push(`${route.path} ${Buffer.from(raw).toString().slice(0, 120)}: ${answer.status}`);
      }
    }
    // Path parameters too: a memory id of any text.
    for (const id of fc.sample(text, { numRuns: 25, seed: 1818 })) {
      tried++;
      const answer = await call('GET', `/mem0/v1/memories/${encodeURIComponent(id)}`, { key: fuzz });
      if (answer.status >= 500) failures.push(`GET /mem0/v1/memories/${id}: ${answer.status}`);
    }
    console.log(`fuzzed ${tried} HTTP requests over ${routes.length + 1} routes: ${failures.length} failed`);
    expect(failures).toEqual([]);
    // Still serving: a plain search of the fuzzing tenant answers.
    expect((await post('/v1/search', fuzz, { query: 'anything' })).status).toBe(200);
  });

  it('answers fuzzed requests on every RPC over NATS with an answer or a 4xx error, never a crash', async () => {
    const failures: string[] = [];
    let tried = 0;
    for (const [i, [name, spec]] of Object.entries(Rpcs).entries()) {
      const fields = rpcFields(spec);
      const requests = fc.oneof(
        fc
          .dictionary(fc.constantFrom(...fields, 'extra'), fc.anything({ maxDepth: 2 }), { maxKeys: 4 })
          .map((body) => new TextEncoder().encode(JSON.stringify(body))),
        fc.json({ maxDepth: 3 }).map((json) => new TextEncoder().encode(json)),
        fc.uint8Array({ maxLength: 200 }),
      );
      for (const request of fc.sample(requests, { numRuns: 10, seed: 1800 + i })) {
        tried++;
        try {
          await callRpcBytes(env.nc, spec, request, { tenantId: 'fuzz-nats', timeoutMs: 10_000 });
        } catch (error) {
          // A refusal of the request is an answer; a 5xx, a timeout or a missing service is not.
          if (!(error instanceof RpcError) || error.status >= 500)
            failures.push(`${name} ${Buffer.from(request).toString().slice(0, 120)}: ${String(error)}`);
        }
      }
    }
    console.log(
      `fuzzed ${tried} NATS requests over ${Object.keys(Rpcs).length} RPCs: ${failures.length} failed`,
    );
    expect(failures).toEqual([]);
  });

  it('lists each bad field of a request', async () => {
    const answer = await post('/v1/search', acme, {
      query: 'x',
      mode: 'psychic',
      filters: { conversationId: 'abc' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'mode' }),
        expect.objectContaining({ field: 'filters.conversationId' }),
      ]),
    );
    const turn = await post('/v1/turns/bot', acme, {
      turnId: '',
      sessionKey: 's',
      messages: [{ role: 'robot', content: 'x' }],
    });
    expect(turn.json.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['turnId', 'messages[0].role']),
    );
  });

  it('shows each running service up from its heartbeats, one not started down, and the hour’s activity', async () => {
    type Health = {
      services: Array<{ service: string; status: string; instances: Array<{ ready: boolean }> }>;
      queues: Array<{ name: string }>;
      activity: Array<{ messagesStored: number; vectorsMade: number; meanVectorLagMs: number }>;
    };
    const health = async () => (await call('GET', '/v1/health', { key: acme })).json as Health;
    const statusOf = (h: Health, service: string) => h.services.find((s) => s.service === service)?.status;
    const started = ['gerty', 'ingest', 'embedder', 'retrieval', 'context-builder', 'patrol', 'api'];
    // Heard from first: what ingest and the embedder do from here on is counted.
    await waitFor(
      'every started service heard',
      async () => {
        const now = await health();
        return started.every((s) => statusOf(now, s) === 'up');
      },
      30_000,
      250,
    );
    const turn = {
      turnId: 'http-health',
      sessionKey: 'health-chat',
      messages: [
        { role: 'user', content: 'The heron nests by the weir.' },
        { role: 'assistant', content: 'Herons, noted.' },
      ],
    };
    expect((await call('POST', '/v1/turns/bot', { key: acme, body: turn })).status).toBe(202);
    let report: Health | undefined;
    await waitFor(
      'the turn in the activity',
      async () => {
        report = await health();
        const sum = (field: 'messagesStored' | 'vectorsMade') =>
          report!.activity.reduce((n, m) => n + m[field], 0);
        return sum('messagesStored') >= 2 && sum('vectorsMade') >= 2;
      },
      30_000,
      250,
    );
    expect(report!.activity).toHaveLength(60);
    expect(report!.activity.some((m) => m.meanVectorLagMs > 0)).toBe(true);
    expect(statusOf(report!, 'compactor')).toBe('down');
    expect(report!.queues.map((q) => q.name)).toContain('ingest-turns');
    expect((await call('GET', '/v1/health')).status).toBe(401);
  });

  it('serves an OpenAPI 3.1 document of every route, whose schemas the real answers match', async () => {
    const { json: doc, status } = await call('GET', '/openapi.json');
    expect(status).toBe(200);
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/search',
        '/v1/browse',
        '/v1/stats/get',
        '/v1/expand',
        '/v1/save',
        '/v1/forget',
        '/v1/context/build',
        '/v1/agents/put',
        '/v1/being/scenes/add',
        '/v1/patrol/run',
        '/v1/turns/{agent}',
      ]),
    );
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const matches = (schema: object, value: unknown) =>
      ajv.compile({
        ...schema,
        $id: undefined,
        components: undefined,
        $ref: undefined,
        allOf: [{ $ref: `doc${(schema as { $ref: string }).$ref}` }],
      })(value);
    const searchOk = doc.paths['/v1/search'].post.responses['200'].content['application/json'].schema;
    expect(matches(searchOk, (await post('/v1/search', acme, { query: 'Brompton' })).json)).toBe(true);
    const statsOk = doc.paths['/v1/stats/get'].post.responses['200'].content['application/json'].schema;
    expect(matches(statsOk, (await post('/v1/stats/get', acme, {})).json)).toBe(true);
    expect(matches(statsOk, { messages: 'many' })).toBe(false);
    const healthOk = doc.paths['/v1/health'].get.responses['200'].content['application/json'].schema;
    expect(matches(healthOk, (await call('GET', '/v1/health', { key: acme })).json)).toBe(true);

    const page = await call('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.json).toContain('/openapi.json');
    expect((await call('GET', '/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
  });

  it('refuses a key once `engram apikey revoke` revoked it, at once', async () => {
    const made = await keys.create('acme', 'short-lived');
    expect((await post('/v1/stats/get', made.key, {})).status).toBe(200); // cached as valid now
    const revoke = spawnSync(
      process.execPath,
      [resolve(__dirname, '../../../tools/cli/dist/main.js'), 'apikey', 'revoke', made.id],
      {
        env: { ...process.env, ...env.env },
        encoding: 'utf8',
      },
    );
    expect(revoke.status).toBe(0);
    expect(revoke.stdout).toContain(`revoked ${made.id} (tenant acme)`);
    await waitFor(
      'the api to refuse the revoked key',
      async () => (await post('/v1/stats/get', made.key, {})).status === 401,
      5000,
    );
  });

  describe('MCP over streamable HTTP', () => {
    const connect = (key: string, agent = 'bot') => connectMcp(base, key, agent);

    it("lists the memory tools and searches the key's tenant, as the header's agent", async () => {
      const client = await connect(acme);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(
          expect.arrayContaining([
            'memory_search',
            'memory_save',
            'memory_forget',
            'context_build',
            'recall',
          ]),
        );
        const found = await client.callTool({
          name: 'memory_search',
          arguments: { query: 'Brompton bicycle' },
        });
        expect(found.isError).toBeFalsy();
        expect(JSON.stringify(found.content)).toContain('Brompton');
        const refused = await client.callTool({ name: 'memory_search', arguments: { query: 7 } });
        expect(refused.isError).toBe(true);
      } finally {
        await client.close();
      }
      const elsewhere = await connect(globex);
      try {
        const found = await elsewhere.callTool({
          name: 'memory_search',
          arguments: { query: 'Brompton bicycle' },
        });
        expect(found.isError).toBeFalsy();
        expect(JSON.stringify(found.content)).toContain('No memory matches');
      } finally {
        await elsewhere.close();
      }
    });

    it('answers fuzzed arguments of every tool with a result or an error, and keeps serving', async () => {
      const client = await connect((await keys.create('fuzz-mcp', 'spec')).key);
      const failures: string[] = [];
      let tried = 0;
      try {
        const { tools } = await client.listTools();
        for (const [i, tool] of tools.entries()) {
          const fields = Object.keys(tool.inputSchema.properties ?? {});
          const args = fc.dictionary(
            fc.constantFrom(...fields, 'extra'),
            fc.oneof(fc.anything({ maxDepth: 2 }), fc.string({ unit: 'binary', maxLength: 80 })),
            { maxKeys: 4 },
          );
          for (const argumentsOf of fc.sample(args, { numRuns: 20, seed: 180 + i })) {
            tried++;
            try {
              const result = await client.callTool({ name: tool.name, arguments: argumentsOf });
              if (!Array.isArray(result.content)) failures.push(`${tool.name}: no content`);
            } catch (error) {
              // A JSON-RPC error (invalid params) is an answer; a broken transport is not.
              if (typeof (error as { code?: unknown }).code !== 'number')
                failures.push(`${tool.name} ${JSON.stringify(argumentsOf)}: ${String(error)}`);
            }
          }
        }
        const after = await client.callTool({ name: 'memory_search', arguments: { query: 'anything' } });
        expect(after.isError).toBeFalsy();
      } finally {
        await client.close();
      }
      console.log(`fuzzed ${tried} MCP tool calls: ${failures.length} failed`);
      expect(failures).toEqual([]);
    });

    it('refuses a request without a key, or without an agent', async () => {
      await expect(connect(`egm_${'y'.repeat(43)}`)).rejects.toThrow(/401|nauthenticated/);
      const noAgent = await call('POST', '/mcp', {
        key: acme,
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(noAgent.status).toBe(400);
      expect(noAgent.json.errors).toEqual([expect.objectContaining({ field: 'agent' })]);
    });
  });

  describe('rate limit', () => {
    let limited: ServiceProcess;

    beforeAll(async () => {
      limited = await startService('api', { ...env.env, API_RATE_LIMIT_PER_MINUTE: '3' });
      await limited.waitUntilReady();
    });

    afterAll(async () => {
      limited?.kill();
      await limited?.exited;
    });

    it('answers 429 with Retry-After once a key spent its requests, and counts each key apart', async () => {
      const at = `http://127.0.0.1:${limited.httpPort}`;
      const stats = (key: string) =>
        request(`${at}/v1/stats/get`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: '{}',
        });
      for (let i = 0; i < 3; i++) expect((await stats(acme)).statusCode).toBe(200);
      const refused = await stats(acme);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(await refused.body.json()).toMatchObject({ code: 'RESOURCE_EXHAUSTED', status: 429 });
      expect((await stats(globex)).statusCode).toBe(200);
    });
  });
});
