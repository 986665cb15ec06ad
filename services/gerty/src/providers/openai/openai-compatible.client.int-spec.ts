import { inspect } from 'node:util';
import { InferenceError } from '@engram/inference';
import { freePort, startFakeOpenAiServer, type FakeOpenAiServer } from '@engram/testing';
import { OpenAiCompatibleClient, type OpenAiCompatibleClientOptions } from './openai-compatible.client';

const FAST = { delaysMs: [30, 60, 90], retryAfterCapMs: 300 };
const KEY = 'sk-tenant-SECRET-0123456789abcdef';

describe('OpenAiCompatibleClient against a fake OpenAI server', () => {
  let server: FakeOpenAiServer;
  const clients: OpenAiCompatibleClient[] = [];
  const logLines: string[] = [];

  function client(options: Partial<OpenAiCompatibleClientOptions> = {}): OpenAiCompatibleClient {
    const made = new OpenAiCompatibleClient({
      baseUrl: server.url,
      retry: FAST,
      logger: { warn: (details, message) => logLines.push(`${message} ${JSON.stringify(details)}`) },
      ...options,
    });
    clients.push(made);
    return made;
  }

  async function failure(promise: Promise<unknown>): Promise<InferenceError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InferenceError);
    return error as InferenceError;
  }

  const gaps = () => server.requests.slice(1).map((r, i) => r.at - server.requests[i]!.at);

  beforeEach(async () => {
    server = await startFakeOpenAiServer();
    logLines.length = 0;
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.destroy()));
    await server.close();
  });

  describe('embeddings', () => {
    it('parses vectors in input order with the right dimensions', async () => {
      server.dimensions = 6;
      const result = await client().embed({
        model: 'nomic-embed-text',
        input: ['a', 'bb', 'ccc'],
        apiKey: KEY,
      });
      expect(result.dimensions).toBe(6);
      expect(result.model).toBe('nomic-embed-text-served');
      expect(result.vectors).toHaveLength(3);
      expect(result.vectors.every((v) => v instanceof Float32Array && v.length === 6)).toBe(true);
      expect(result.vectors.map((v) => v[0])).toEqual([0, 1, 2]); // sorted by index though served reversed
      expect(result.vectors[2]![1]).toBeCloseTo(1.5);
      expect(result.usage).toEqual({ promptTokens: 9, totalTokens: 9 });

      const [request] = server.requests;
      expect(request!.path).toBe('/v1/embeddings');
      expect(request!.body).toEqual({
        model: 'nomic-embed-text',
        input: ['a', 'bb', 'ccc'],
        encoding_format: 'float',
      });
      expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(request!.headers['content-type']).toBe('application/json');
    });

    it('sends no Authorization without a key, and nothing at all for no input', async () => {
      const embedder = client({ defaultHeaders: { 'X-Team': 'memory' } });
      expect(await embedder.embed({ model: 'm', input: [] })).toEqual({
        vectors: [],
        model: 'm',
        dimensions: 0,
      });
      expect(server.requests).toHaveLength(0);
      await embedder.embed({ model: 'm', input: ['x'] });
      expect(server.requests[0]!.headers.authorization).toBeUndefined();
      expect(server.requests[0]!.headers['x-team']).toBe('memory');
    });

    it('takes the API root as given when the base URL has a path', async () => {
      await client({ baseUrl: `${server.url}/v1/` }).embed({ model: 'm', input: ['x'] });
      await client({ baseUrl: `${server.url}/proxy/v1` })
        .embed({ model: 'm', input: ['x'] })
        .catch(() => undefined);
      expect(server.requests.map((r) => r.path)).toEqual(['/v1/embeddings', '/proxy/v1/embeddings']);
    });
  });

  describe('keep-alive pool', () => {
    it('reuses connections for sequential requests', async () => {
      // undici resolves a body just before it marks its connection idle, so back-to-back
      // requests alternate between two sockets; what matters is that they are reused.
      const c = client();
      for (let i = 0; i < 20; i++) await c.embed({ model: 'm', input: [`text ${i}`] });
      expect(server.requests).toHaveLength(20);
      expect(server.connections()).toBeLessThanOrEqual(2);

      const single = client({ connections: 1 });
      const before = server.connections();
      for (let i = 0; i < 10; i++) await single.embed({ model: 'm', input: [`text ${i}`] });
      expect(server.connections() - before).toBe(1);
      expect(new Set(server.requests.slice(20).map((r) => r.connection)).size).toBe(1);
    });

    it('opens at most `connections` sockets for concurrent requests and keeps them', async () => {
      const c = client({ connections: 2 });
      await Promise.all(Array.from({ length: 8 }, (_, i) => c.embed({ model: 'm', input: [`t${i}`] })));
      await Promise.all(Array.from({ length: 8 }, (_, i) => c.embed({ model: 'm', input: [`u${i}`] })));
      expect(server.requests).toHaveLength(16);
      expect(server.connections()).toBe(2);
    });
  });

  describe('retries', () => {
    it('retries 500 and 503 on the schedule, then succeeds', async () => {
      server.script(
        { kind: 'status', status: 500 },
        { kind: 'status', status: 503 },
        { kind: 'status', status: 502 },
      );
      const result = await client().complete({
        model: 'llama3',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(result.text).toBe('Hello from the fake server.');
      expect(server.requests).toHaveLength(4);
      gaps().forEach((gap, i) => {
        expect(gap).toBeGreaterThanOrEqual(FAST.delaysMs[i]! - 2);
        expect(gap).toBeLessThan(FAST.delaysMs[i]! + 500);
      });
      expect(logLines).toHaveLength(3);
      expect(logLines[0]).toMatch(/answered 500: failure 500; retrying in 30 ms/);
    });

    it('gives up after three retries with the last status and the server message', async () => {
      server.script(
        ...Array.from({ length: 4 }, () => ({
          kind: 'status' as const,
          status: 503,
          message: 'model is loading',
        })),
      );
      const error = await failure(
        client().complete({ model: 'llama3', messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(error).toMatchObject({ kind: 'unavailable', status: 503, attempts: 4, transient: true });
      expect(error.message).toBe(
        `POST ${server.url}/v1/chat/completions answered 503: model is loading; gave up after 4 attempts`,
      );
      expect(server.requests).toHaveLength(4);
    });

    it('retries 429 and ends as rate_limited', async () => {
      server.script(
        ...Array.from({ length: 4 }, () => ({
          kind: 'status' as const,
          status: 429,
          message: 'Rate limit reached',
        })),
      );
      const error = await failure(client().embed({ model: 'm', input: ['x'] }));
      expect(error).toMatchObject({ kind: 'rate_limited', status: 429, attempts: 4 });
      expect(error.message).toMatch(/Rate limit reached/);
    });

    it('waits as long as Retry-After asks when that is longer than the step', async () => {
      server.script({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
      await client({ retry: { ...FAST, retryAfterCapMs: 5_000 } }).embed({ model: 'm', input: ['x'] });
      expect(server.requests).toHaveLength(2);
      expect(gaps()[0]).toBeGreaterThanOrEqual(995);
      expect(gaps()[0]).toBeLessThan(1_600);
    });

    it('caps a long Retry-After (seconds or HTTP date)', async () => {
      const inAnHour = new Date(Date.now() + 3_600_000).toUTCString();
      server.script(
        { kind: 'status', status: 429, headers: { 'retry-after': '3600' } },
        { kind: 'status', status: 503, headers: { 'retry-after': inAnHour } },
      );
      await client().embed({ model: 'm', input: ['x'] });
      expect(server.requests).toHaveLength(3);
      for (const gap of gaps()) {
        expect(gap).toBeGreaterThanOrEqual(FAST.retryAfterCapMs - 2);
        expect(gap).toBeLessThan(FAST.retryAfterCapMs + 500);
      }
    });

    it('retries when the server closes the socket without answering', async () => {
      server.script({ kind: 'close' }, { kind: 'close' });
      const result = await client().embed({ model: 'm', input: ['x'] });
      expect(result.vectors).toHaveLength(1);
      expect(server.requests).toHaveLength(3);
      expect(logLines[0]).toMatch(/UND_ERR_SOCKET/);
    });

    it('retries a refused connection, then reports it', async () => {
      const port = await freePort();
      const started = performance.now();
      const error = await failure(
        client({ baseUrl: `http://127.0.0.1:${port}` }).embed({ model: 'm', input: ['x'], apiKey: KEY }),
      );
      expect(performance.now() - started).toBeGreaterThanOrEqual(30 + 60 + 90 - 5);
      expect(error).toMatchObject({ kind: 'unavailable', code: 'ECONNREFUSED', attempts: 4 });
      expect(error.status).toBeUndefined();
      expect(error.message).toMatch(
        new RegExp(
          `^POST http://127.0.0.1:${port}/v1/embeddings failed: .*ECONNREFUSED.*gave up after 4 attempts$`,
        ),
      );
    });

    it.each([
      [400, 'input must be a list of strings'],
      [401, 'invalid api key'],
      [403, 'model not allowed for this project'],
      [404, 'model "nope" not found, try pulling it first'],
    ])('does not retry %i', async (status, message) => {
      server.script({ kind: 'status', status, message });
      const error = await failure(
        client().complete({ model: 'nope', messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(error).toMatchObject({ kind: 'rejected', status, attempts: 1, transient: false });
      expect(error.message).toBe(`POST ${server.url}/v1/chat/completions answered ${status}: ${message}`);
      expect(server.requests).toHaveLength(1);
    });

    it('does not retry a 200 whose body is not JSON', async () => {
      server.script({ kind: 'garbage' });
      const error = await failure(client().embed({ model: 'm', input: ['x'] }));
      expect(error).toMatchObject({ kind: 'invalid_output', status: 200 });
      expect(error.message).toMatch(/not JSON \(text\/html\): <html><body>Welcome to nginx!/);
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('no timeout but the caller’s', () => {
    it('waits on a stalled server until the caller aborts, then stops at once', async () => {
      server.script({ kind: 'stall' });
      const controller = new AbortController();
      const pending = failure(
        client().complete({
          model: 'slow',
          messages: [{ role: 'user', content: 'hi' }],
          signal: controller.signal,
        }),
      );
      await server.waitForRequests(1);
      await new Promise((r) => setTimeout(r, 400));
      let settled = false;
      void pending.then(() => (settled = true));
      await new Promise((r) => setImmediate(r));
      expect(settled).toBe(false);
      const abortedAt = performance.now();
      controller.abort();
      const error = await pending;
      expect(performance.now() - abortedAt).toBeLessThan(100);
      expect(error).toMatchObject({ kind: 'aborted' });
      expect(error.message).toBe(`POST ${server.url}/v1/chat/completions aborted by the caller`);
      expect(server.requests).toHaveLength(1);
    });

    it('names a timeout reason given by the caller', async () => {
      server.script({ kind: 'stall' });
      const error = await failure(
        client().embed({ model: 'm', input: ['x'], signal: AbortSignal.timeout(150) }),
      );
      expect(error.kind).toBe('aborted');
      expect(error.message).toMatch(/aborted by the caller \(TimeoutError: .+\)$/);
    });

    it('stops a backoff sleep at once when aborted', async () => {
      server.script({ kind: 'status', status: 503 });
      const controller = new AbortController();
      const started = performance.now();
      const pending = failure(
        client({ retry: { delaysMs: [10_000, 10_000, 10_000] } }).embed({
          model: 'm',
          input: ['x'],
          signal: controller.signal,
        }),
      );
      await server.waitForRequests(1);
      await new Promise((r) => setTimeout(r, 50));
      controller.abort();
      const error = await pending;
      expect(error.kind).toBe('aborted');
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(server.requests).toHaveLength(1);
    });

    it('sends nothing when the signal is already aborted', async () => {
      const error = await failure(client().embed({ model: 'm', input: ['x'], signal: AbortSignal.abort() }));
      expect(error.kind).toBe('aborted');
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('API keys', () => {
    function expectNoKey(values: unknown[]) {
      for (const value of values) {
        const text =
          typeof value === 'string'
            ? value
            : `${inspect(value, { depth: Infinity, showHidden: true })} ${JSON.stringify(value)}`;
        expect(text).not.toContain(KEY);
        expect(text).not.toContain('SECRET-0123');
      }
    }

    it('never appear in errors, even when the server echoes them', async () => {
      server.script({ kind: 'echo-auth', status: 401 });
      const error = await failure(
        client().complete({ model: 'gpt', messages: [{ role: 'user', content: 'hi' }], apiKey: KEY }),
      );
      expect(error.kind).toBe('rejected');
      expect(error.message).toMatch(/Incorrect API key provided: \[redacted\]/);
      expectNoKey([error, error.message, error.stack]);
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    });

    it('never appear in retry log lines or in network errors', async () => {
      server.script(...Array.from({ length: 4 }, () => ({ kind: 'echo-auth' as const, status: 503 })));
      const served = await failure(client().embed({ model: 'm', input: ['x'], apiKey: KEY }));
      const port = await freePort();
      const refused = await failure(
        client({ baseUrl: `http://127.0.0.1:${port}` }).embed({ model: 'm', input: ['x'], apiKey: KEY }),
      );
      const aborted = await failure(
        client().embed({
          model: 'm',
          input: ['x'],
          apiKey: KEY,
          signal: AbortSignal.abort(new Error(`gave up on ${KEY}`)),
        }),
      );
      expect(logLines.length).toBeGreaterThanOrEqual(6);
      expectNoKey([served, refused, aborted, ...logLines]);
    });

    it('treat auth-like default headers as secrets too', async () => {
      server.script({ kind: 'echo-auth', status: 401 });
      const error = await failure(
        client({ defaultHeaders: { Authorization: `Bearer ${KEY}` } }).embed({ model: 'm', input: ['x'] }),
      );
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
      expectNoKey([error]);
    });
  });

  describe('structured output', () => {
    const schema = {
      title: 'Facts',
      type: 'object',
      properties: {
        facts: {
          type: 'array',
          items: {
            type: 'object',
            properties: { text: { type: 'string' }, importance: { type: 'integer', minimum: 1, maximum: 5 } },
            required: ['text', 'importance'],
            additionalProperties: false,
          },
        },
      },
      required: ['facts'],
      additionalProperties: false,
    };
    const messages = [
      { role: 'system' as const, content: 'Extract facts.' },
      { role: 'user' as const, content: 'I moved to Lisbon in May.' },
    ];
    const valid = { facts: [{ text: 'The user moved to Lisbon in May.', importance: 4 }] };

    it('asks with a json_schema response format and returns the validated value', async () => {
      server.script({ kind: 'content', content: JSON.stringify(valid) });
      const result = await client().complete({
        model: 'qwen',
        messages,
        jsonSchema: schema,
        maxTokens: 200,
        temperature: 0,
      });
      expect(result).toEqual({
        text: JSON.stringify(valid),
        json: valid,
        model: 'qwen',
        promptTokens: 10,
        completionTokens: 5,
      });
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.body).toEqual({
        model: 'qwen',
        messages,
        stream: false,
        max_tokens: 200,
        temperature: 0,
        response_format: { type: 'json_schema', json_schema: { name: 'Facts', schema, strict: true } },
      });
    });

    it('tolerates ```json fences', async () => {
      server.script({ kind: 'content', content: `\`\`\`json\n${JSON.stringify(valid, null, 2)}\n\`\`\`` });
      const result = await client().complete({ model: 'qwen', messages, jsonSchema: schema });
      expect(result.json).toEqual(valid);
      expect(server.requests).toHaveLength(1);
    });

    it('repairs malformed JSON once, sending the bad answer and what was wrong', async () => {
      server.script(
        { kind: 'content', content: '{"facts": [{"text": "Lisbon", "importance": 4}' },
        { kind: 'content', content: JSON.stringify(valid) },
      );
      const result = await client().complete({ model: 'qwen', messages, jsonSchema: schema });
      expect(result.json).toEqual(valid);
      expect(result.promptTokens).toBe(20);
      expect(result.completionTokens).toBe(10);
      expect(server.requests).toHaveLength(2);
      const repair = server.requests[1]!.body.messages as { role: string; content: string }[];
      expect(repair.slice(0, 2)).toEqual(messages);
      expect(repair[2]).toEqual({
        role: 'assistant',
        content: '{"facts": [{"text": "Lisbon", "importance": 4}',
      });
      expect(repair[3]!.role).toBe('user');
      expect(repair[3]!.content).toMatch(/not valid JSON/);
      expect(repair[3]!.content).toMatch(/only the corrected JSON/);
    });

    it('repairs JSON that fails the schema', async () => {
      server.script(
        { kind: 'content', content: JSON.stringify({ facts: [{ text: 'Lisbon', importance: 'high' }] }) },
        { kind: 'content', content: JSON.stringify(valid) },
      );
      const result = await client().complete({ model: 'qwen', messages, jsonSchema: schema });
      expect(result.json).toEqual(valid);
      const repair = server.requests[1]!.body.messages as { content: string }[];
      expect(repair[3]!.content).toContain('- /facts/0/importance: must be integer');
    });

    it('fails with what was wrong when the repair is invalid too', async () => {
      const invalid = JSON.stringify({ facts: [{ text: 'Lisbon', importance: 9, source: 'chat' }] });
      server.script(
        { kind: 'content', content: invalid },
        { kind: 'content', content: invalid, finishReason: 'stop' },
      );
      const error = await failure(client().complete({ model: 'qwen', messages, jsonSchema: schema }));
      expect(error.kind).toBe('invalid_output');
      expect(error.problems).toEqual([
        '/facts/0: must NOT have additional properties ("source")',
        '/facts/0/importance: must be <= 5',
      ]);
      expect(error.message).toBe(
        `qwen at ${server.url}/v1 did not answer with JSON valid against the schema, even after one repair attempt: ` +
          '/facts/0: must NOT have additional properties ("source"); /facts/0/importance: must be <= 5',
      );
      expect(server.requests).toHaveLength(2);
    });

    it('says so when the answer was cut off by the token limit', async () => {
      server.script(
        { kind: 'content', content: '{"facts": [', finishReason: 'length' },
        { kind: 'content', content: '{"facts": [{"te', finishReason: 'length' },
      );
      const error = await failure(
        client().complete({ model: 'qwen', messages, jsonSchema: schema, maxTokens: 5 }),
      );
      expect(error.problems).toContain('the answer was cut off by the token limit (finish_reason "length")');
    });

    it('falls back to json_object with the schema in the system prompt when json_schema is rejected, and remembers', async () => {
      server.rejectResponseFormats.add('json_schema');
      server.script({ kind: 'content', content: JSON.stringify(valid) });
      const c = client();
      const result = await c.complete({ model: 'llama', messages, jsonSchema: schema });
      expect(result.json).toEqual(valid);
      expect(server.requests.map((r) => (r.body.response_format as { type: string }).type)).toEqual([
        'json_schema',
        'json_object',
      ]);
      const sent = server.requests[1]!.body.messages as { role: string; content: string }[];
      expect(sent).toHaveLength(2);
      expect(sent[0]!.role).toBe('system');
      expect(sent[0]!.content).toMatch(/^Extract facts\.\n\nAnswer with a single JSON value/);
      expect(sent[0]!.content).toContain(JSON.stringify(schema));
      expect(logLines[0]).toMatch(
        /structured output as json_schema rejected; asking with json_object from now on/,
      );

      server.script({ kind: 'content', content: JSON.stringify(valid) });
      await c.complete({ model: 'llama', messages, jsonSchema: schema });
      expect(server.requests).toHaveLength(3);
      expect((server.requests[2]!.body.response_format as { type: string }).type).toBe('json_object');
    });

    it('falls back to the prompt alone when JSON mode is rejected too', async () => {
      server.rejectResponseFormats.add('json_schema').add('json_object');
      server.script({ kind: 'content', content: JSON.stringify(valid) });
      const result = await client().complete({
        model: 'tiny',
        messages: [{ role: 'user', content: 'facts?' }],
        jsonSchema: schema,
      });
      expect(result.json).toEqual(valid);
      expect(server.requests).toHaveLength(3);
      expect(server.requests[2]!.body.response_format).toBeUndefined();
      expect((server.requests[2]!.body.messages as { role: string }[]).map((m) => m.role)).toEqual([
        'system',
        'user',
      ]);
    });

    it('does not fall back on a 400 that is not about the response format', async () => {
      server.script({
        kind: 'status',
        status: 400,
        message: "This model's maximum context length is 8192 tokens",
      });
      const error = await failure(client().complete({ model: 'qwen', messages, jsonSchema: schema }));
      expect(error).toMatchObject({ kind: 'rejected', status: 400 });
      expect(server.requests).toHaveLength(1);
    });

    it('rejects a schema that does not compile before sending anything', async () => {
      const error = await failure(
        client().complete({ model: 'qwen', messages, jsonSchema: { type: 'objekt' } }),
      );
      expect(error.kind).toBe('rejected');
      expect(error.message).toMatch(/^the JSON schema for qwen does not compile: /);
      expect(server.requests).toHaveLength(0);
    });
  });
});
