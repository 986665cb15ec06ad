import { execFileSync, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort, startTestEnvironment, waitFor, type TestEnvironment } from '@engram/testing';
import { EngramClient } from './engram-client';
import {
  EngramInvalidArgumentError,
  EngramPayloadTooLargeError,
  EngramRateLimitedError,
  EngramUnauthenticatedError,
  EngramUnavailableError,
} from './errors';

const REPO = resolve(__dirname, '../../..');

/**
 * The SDK over HTTP against the api edge and the services behind it, as processes (built dist),
 * with a key made by `engram apikey create`: the same cases as the NATS spec, through the edge.
 */
describe('EngramClient over HTTP (the api edge, real services, Postgres and JetStream)', () => {
  let env: TestEnvironment;
  let baseUrl: string;
  let apiKey: string;
  let acme: EngramClient;
  /** The edge's limits, low enough to reach in a test. */
  const RATE_LIMIT_PER_MINUTE = 20;
  const MAX_BODY_BYTES = 65_536;

  /** A new key of the tenant, made as a user makes one: the last line `engram apikey create` prints. */
  const createKey = (tenant: string) =>
    execFileSync(
      process.execPath,
      [resolve(REPO, 'tools/cli/dist/main.js'), 'apikey', 'create', '--tenant', tenant],
      {
        env: { ...process.env, ...env.env },
        encoding: 'utf8',
      },
    )
      .trim()
      .split('\n')
      .at(-1)!;

  const turn = {
    turnId: 'turn-1',
    sessionKey: 'chat-7',
    messages: [
      { role: 'user', author: 'Ada', content: 'Hi! I am Ada. Please use metric units for the glacier trek.' },
      { role: 'assistant', content: 'Noted, Ada: kilometres and degrees Celsius from now on.' },
    ],
  };

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'client_http',
      processes: [
        'ingest',
        'retrieval',
        'context-builder',
        {
          name: 'api',
          env: {
            API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE),
            API_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
          },
        },
      ],
    });
    baseUrl = `http://127.0.0.1:${env.process('api').httpPort}`;
    apiKey = createKey('acme');
    acme = EngramClient.http({ baseUrl, apiKey, agent: 'concierge' });
  });

  afterAll(async () => {
    await acme?.close();
    await env?.stop();
  });

  const storedMessages = () =>
    env.count(
      `SELECT count(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.tenant_id = 'acme' AND c.agent = 'concierge' AND c.session_key = 'chat-7'`,
    );

  it('publishes a turn once however often it is posted with the same key, and finds it by search', async () => {
    const first = await acme.publishTurn(turn);
    const again = await acme.publishTurn(turn);

    expect(first).toMatchObject({ stream: 'TURNS', duplicate: false });
    expect(again).toEqual({ stream: 'TURNS', seq: first.seq, duplicate: true });
    await waitFor('the turn stored', async () => (await storedMessages()) === 2, 15_000);

    const found = await acme.search({ query: 'glacier trek units' });
    expect(found.hits.map((h) => h.content)).toContain(turn.messages[0]!.content);
    expect(await storedMessages()).toBe(2);
  });

  it('throws EngramInvalidArgumentError with the field violations of the problem', async () => {
    const failure = await acme
      .search({ query: 'units', topK: 1000, mode: 'psychic' })
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(EngramInvalidArgumentError);
    expect((failure as EngramInvalidArgumentError).fieldViolations).toEqual([
      { field: 'mode', description: expect.stringMatching(/^mode must be one of fulltext, trigram, regex/) },
      { field: 'topK', description: 'topK must be between 1 and 100 (got 1000)' },
    ]);
  });

  it('throws EngramUnauthenticatedError for an unknown key', async () => {
    const stranger = EngramClient.http({ baseUrl, apiKey: 'egm_unknown', agent: 'concierge' });
    await expect(stranger.stats()).rejects.toBeInstanceOf(EngramUnauthenticatedError);
  });

  it("throws EngramRateLimitedError with the edge's Retry-After once a key is over its limit", async () => {
    const busy = EngramClient.http({ baseUrl, apiKey: createKey('acme'), agent: 'concierge' });
    for (let i = 0; i < RATE_LIMIT_PER_MINUTE; i++) await busy.stats();

    const failure = await busy.stats().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EngramRateLimitedError);
    expect((failure as EngramRateLimitedError).retryAfterMs).toBeGreaterThan(0);
    expect((failure as Error).message).toMatch(/\(slow down: try again in \d+ s\)$/);
  });

  it('throws EngramPayloadTooLargeError for a body over the limit', async () => {
    await expect(acme.save({ content: 'x'.repeat(MAX_BODY_BYTES + 1) })).rejects.toBeInstanceOf(
      EngramPayloadTooLargeError,
    );
  });

  it('throws EngramUnavailableError after its retries when no service answers behind the edge', async () => {
    // No patrol runs in this environment: the edge answers 503 for being memory.
    const client = EngramClient.http({
      baseUrl,
      apiKey,
      agent: 'ada',
      retry: { retries: 2, baseDelayMs: 10 },
    });
    await expect(client.getBeing()).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      retries: 2,
      where: baseUrl,
    });
  });

  it('throws EngramUnavailableError after its retries when the edge does not answer', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const client = EngramClient.http({ baseUrl: nowhere, apiKey, retry: { retries: 1, baseDelayMs: 10 } });
    const failure = await client.stats().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EngramUnavailableError);
    expect((failure as Error).message).toMatch(/retried 1 time \(POST \/v1\/stats\/get: ECONNREFUSED\)$/);
  });

  it('runs examples/agent-loop over HTTP with ENGRAM_API_KEY', () => {
    const run = spawnSync(process.execPath, ['index.mjs'], {
      cwd: resolve(REPO, 'examples/agent-loop'),
      env: { ...process.env, ENGRAM_API_KEY: apiKey, ENGRAM_URL: baseUrl },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.match(/^prompt: \d+ of 96000 tokens \(identity, tools.*\)$/gm)).toHaveLength(2);
  });
});
