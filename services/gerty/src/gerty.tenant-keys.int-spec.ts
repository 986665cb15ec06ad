import { randomBytes } from 'node:crypto';
import { format, inspect } from 'node:util';
import type { LoggerService } from '@nestjs/common';
import type { Client } from 'pg';
import { Rpcs } from '@engram/contracts';
import { RpcError, type RpcClient } from '@engram/messaging';
import {
  startFakeOpenAiServer,
  startServiceUnderTest,
  type FakeOpenAiServer,
  type ServiceUnderTest,
} from '@engram/testing';
import { loadGertyConfig } from './gerty.config';
import { GertyModule } from './gerty.module';
import { OPENAI_RETRY_SCHEDULE } from './models/model-router';

const OPERATOR_KEY = 'sk-operator-0000aaaa1111bbbb';
const ACME_KEY = 'sk-acme-SECRET-5f2c9e71d4b8a603';
const REQUEST_KEY = 'sk-request-SECRET-77e1c0ffee42';

/** Every line Gerty logs, at every level, as it would be written. */
class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  private record(level: string, message: unknown, rest: unknown[]) {
    const text = [message, ...rest]
      .map((part) => (typeof part === 'string' ? part : inspect(part, { depth: Infinity })))
      .join(' ');
    this.lines.push(`${level} ${format(text)}`);
  }
  log(message: unknown, ...rest: unknown[]) {
    this.record('log', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.record('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.record('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.record('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.record('verbose', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]) {
    this.record('fatal', message, rest);
  }
}

interface Gerty extends ServiceUnderTest {
  readonly server: FakeOpenAiServer;
  readonly logs: CapturingLogger;
}

/** Gerty on one fake OpenAI-compatible endpoint (with the operator's key), logging into `logs`. */
async function startGerty(env: Record<string, string>): Promise<Gerty> {
  const server = await startFakeOpenAiServer();
  const logs = new CapturingLogger();
  const gerty = await startServiceUnderTest({
    label: 'gerty_keys',
    loadConfig: loadGertyConfig,
    module: (config) => GertyModule.register(config),
    config: {
      LOG_LEVEL: 'debug',
      GERTY_OPENAI_BASE_URL: server.url,
      GERTY_OPENAI_API_KEY: OPERATOR_KEY,
      GERTY_OPENAI_CHAT_MODEL: 'fake-chat',
      GERTY_OPENAI_EMBEDDING_MODEL: 'fake-embed',
      EMBEDDING_DIMENSIONS: '4',
      ...env,
    },
    overrides: [
      { provide: OPENAI_RETRY_SCHEDULE, useValue: { delaysMs: [10, 20, 30], retryAfterCapMs: 50 } },
    ],
    logger: logs,
  }).catch(async (error: unknown) => {
    await server.close();
    throw error;
  });
  return {
    ...gerty,
    server,
    logs,
    async stop() {
      await gerty.stop();
      await server.close();
    },
  };
}

async function rpcFailure(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

const chat = (content = 'hi') => [{ role: 'user', content }];

describe('tenants’ own API keys (real NATS and Postgres, fake OpenAI server)', () => {
  let gerty: Gerty;
  let admin: Client;

  beforeAll(async () => {
    gerty = await startGerty({ ENGRAM_SECRET_KEY: randomBytes(32).toString('base64') });
    ({ admin } = gerty);
  });

  afterAll(() => gerty?.stop());

  beforeEach(() => {
    gerty.server.requests.length = 0;
  });

  const setKey = (tenantId: string, model: string, apiKey: string) =>
    gerty.rpc.call(Rpcs.gertyKeysPut, { model, apiKey }, { tenantId });
  const complete = (request: Parameters<RpcClient['call']>[1]) => gerty.rpc.call(Rpcs.gertyComplete, request);
  /** The Authorization header of each request the endpoint received, in order. */
  const authorizations = () => gerty.server.requests.map((r) => r.headers.authorization);

  it('sends a tenant’s stored key for its requests, the operator’s for everyone else’s, and a per-request key above both', async () => {
    expect(await setKey('acme', 'openai-chat', ACME_KEY)).toMatchObject({
      model: 'openai-chat',
      stored: true,
    });

    await complete({ messages: chat(), tenantId: 'acme' });
    await complete({ task: 'describe_tool_call', taskInput: { toolName: 'get_time' }, tenantId: 'acme' });
    await complete({ messages: chat(), tenantId: 'globex' });
    await complete({ messages: chat() });
    await complete({ messages: chat(), tenantId: 'acme', apiKey: REQUEST_KEY });
    await complete({ messages: chat(), tenantId: 'globex', apiKey: REQUEST_KEY });
    // The key is stored for one model: acme's embeddings still use the operator's.
    await gerty.rpc.call(Rpcs.gertyEmbed, { texts: ['x'], tenantId: 'acme' });

    expect(authorizations()).toEqual([
      `Bearer ${ACME_KEY}`,
      `Bearer ${ACME_KEY}`,
      `Bearer ${OPERATOR_KEY}`,
      `Bearer ${OPERATOR_KEY}`,
      `Bearer ${REQUEST_KEY}`,
      `Bearer ${REQUEST_KEY}`,
      `Bearer ${OPERATOR_KEY}`,
    ]);
  });

  it('replaces a stored key, and removes it when given an empty one', async () => {
    await setKey('initech', 'openai-embedding', 'sk-initech-first');
    await setKey('initech', 'openai-embedding', 'sk-initech-second');
    await gerty.rpc.call(Rpcs.gertyEmbed, { texts: ['x'], tenantId: 'initech' });
    expect(await setKey('initech', 'openai-embedding', '')).toMatchObject({
      model: 'openai-embedding',
      stored: false,
    });
    await gerty.rpc.call(Rpcs.gertyEmbed, { texts: ['x'], tenantId: 'initech' });
    expect(authorizations()).toEqual(['Bearer sk-initech-second', `Bearer ${OPERATOR_KEY}`]);
  });

  it('stores the key sealed: the tenant_secrets row holds none of its bytes', async () => {
    await setKey('acme', 'openai-chat', ACME_KEY);
    const { rows } = await admin.query<{ tenant_id: string; name: string; ciphertext: Buffer; row: string }>(
      `SELECT tenant_id, name, ciphertext, t::text AS row FROM tenant_secrets t`,
    );
    const acme = rows.find((r) => r.tenant_id === 'acme' && r.name === 'model:openai-chat');
    expect(acme).toBeDefined();
    expect(acme!.ciphertext.length).toBeGreaterThanOrEqual(12 + 16 + ACME_KEY.length);
    for (const row of rows) {
      for (const secret of [ACME_KEY, 'SECRET-5f2c', 'sk-initech-second']) {
        expect(row.ciphertext.includes(Buffer.from(secret))).toBe(false);
        expect(row.row).not.toContain(secret);
        expect(row.row).not.toContain(Buffer.from(secret).toString('hex'));
      }
    }
  });

  it('never logs or returns a key, even when the endpoint echoes it back in its errors', async () => {
    await setKey('acme', 'openai-chat', ACME_KEY);
    gerty.server.script(...Array.from({ length: 4 }, () => ({ kind: 'echo-auth' as const, status: 503 })));
    const stored = await rpcFailure(complete({ messages: chat(), tenantId: 'acme' }));
    expect(stored.code).toBe('UNAVAILABLE');
    gerty.server.script({ kind: 'echo-auth', status: 401 });
    const perRequest = await rpcFailure(
      complete({ messages: chat(), tenantId: 'acme', apiKey: REQUEST_KEY }),
    );
    expect(perRequest.code).toBe('FAILED_PRECONDITION');
    expect(perRequest.message).toContain('Incorrect API key provided: [redacted]');
    const models = await gerty.rpc.call(Rpcs.gertyModelsList, {});

    // The endpoint did get the keys, and Gerty did log (its start, each retry).
    expect(authorizations()).toEqual([
      ...Array.from({ length: 4 }, () => `Bearer ${ACME_KEY}`),
      `Bearer ${REQUEST_KEY}`,
    ]);
    const logs = gerty.logs.lines.join('\n');
    expect(logs).toMatch(/models: local .*openai-chat \(openai:fake-chat\)/);
    expect(
      gerty.logs.lines.filter((l) =>
        /^warn .*answered 503: Incorrect API key provided: \[redacted\].*retrying/.test(l),
      ),
    ).toHaveLength(3);

    const returned =
      [stored, perRequest].map((e) => `${e.message} ${JSON.stringify(e.details)}`).join('\n') +
      JSON.stringify(models);
    for (const secret of [ACME_KEY, REQUEST_KEY, OPERATOR_KEY, 'SECRET-5f2c', 'SECRET-77e1']) {
      expect(logs).not.toContain(secret);
      expect(returned).not.toContain(secret);
    }
  });

  it('refuses a key for an unknown model (NOT_FOUND) and for the built-in one (INVALID_ARGUMENT)', async () => {
    expect((await rpcFailure(setKey('acme', 'gpt-5', ACME_KEY))).code).toBe('NOT_FOUND');
    expect((await rpcFailure(setKey('acme', 'local', ACME_KEY))).code).toBe('INVALID_ARGUMENT');
  });

  it('refuses a key for no model with a violation naming the field, and stores nothing', async () => {
    const error = await rpcFailure(setKey('umbrella', '', ACME_KEY));
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { fieldViolations: [{ field: 'model', description: 'model is required' }] },
    });
    const written = await admin.query(
      `SELECT 1 FROM tenants WHERE tenant_id = 'umbrella' UNION ALL SELECT 1 FROM tenant_secrets WHERE tenant_id = 'umbrella'`,
    );
    expect(written.rows).toEqual([]);
  });
});

describe('tenants’ keys without ENGRAM_SECRET_KEY', () => {
  let gerty: Gerty;

  beforeAll(async () => {
    gerty = await startGerty({});
  });

  afterAll(async () => {
    await gerty?.stop();
  });

  it('refuses to store a key with FAILED_PRECONDITION, and still takes a key per request', async () => {
    const error = await rpcFailure(
      gerty.rpc.call(Rpcs.gertyKeysPut, { model: 'openai-chat', apiKey: ACME_KEY }, { tenantId: 'acme' }),
    );
    expect(error.code).toBe('FAILED_PRECONDITION');
    expect(error.message).toBe('this Engram cannot store keys: ENGRAM_SECRET_KEY is not set');
    expect(error.message).not.toContain(ACME_KEY);

    await gerty.rpc.call(Rpcs.gertyComplete, { messages: chat(), tenantId: 'acme' });
    await gerty.rpc.call(Rpcs.gertyComplete, { messages: chat(), tenantId: 'acme', apiKey: REQUEST_KEY });
    expect(gerty.server.requests.map((r) => r.headers.authorization)).toEqual([
      `Bearer ${OPERATOR_KEY}`,
      `Bearer ${REQUEST_KEY}`,
    ]);
    expect(gerty.logs.lines.join('\n')).not.toContain(ACME_KEY);
  });
});
