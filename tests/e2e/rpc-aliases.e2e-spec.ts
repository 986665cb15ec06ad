import { Rpcs, httpAliasPaths, httpPath, type RpcSpec } from '@engram/contracts';
import { callRpcBytes, RpcError } from '@engram/messaging';
import { ApiKeyStore, createDataSource } from '@engram/store';
import { apiCaller, startTestEnvironment, type ApiCall, type TestEnvironment } from '@engram/testing';
import type { DataSource } from 'typeorm';

const TENANT = 'acme';

/** Every former subject still answered, beside the RPC that replaced it. */
const ALIASES = Object.values<RpcSpec>(Rpcs).flatMap((spec) =>
  spec.aliases.map((alias) => ({ alias, spec })),
);

/** What a subject answers to an empty request: the answer's bytes, or the error's code and message. */
async function outcome(env: TestEnvironment, spec: RpcSpec, subject: string): Promise<unknown> {
  try {
    const reply = await callRpcBytes(env.nc, { ...spec, subject }, new TextEncoder().encode('{}'), {
      tenantId: TENANT,
      timeoutMs: 20_000,
    });
    return { answer: new TextDecoder().decode(reply) };
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    return { code: error.code, message: error.message };
  }
}

/**
 * The RPCs renamed by the RPC grammar (CONTRIBUTING.md) keep answering under their former
 * subjects and HTTP routes, as their current ones do, for a client written against the old name.
 */
describe('former RPC names (real NATS, Postgres and services)', () => {
  let env: TestEnvironment;
  let dataSource: DataSource;
  let call: ApiCall;
  let key: string;

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'rpc-aliases',
      readyTimeoutMs: 120_000,
      processes: [
        'gerty',
        'ingest',
        'retrieval',
        'context-builder',
        { name: 'patrol', env: { PATROL_EVERY_MS: '0' } },
        { name: 'api', env: { API_RATE_LIMIT_PER_MINUTE: '0' } },
      ],
    });
    call = apiCaller(`http://127.0.0.1:${env.process('api').httpPort}`);
    dataSource = createDataSource(env.env.DATABASE_URL, { poolSize: 1, applicationName: 'rpc-aliases-spec' });
    await dataSource.initialize();
    key = (await new ApiKeyStore(dataSource).create(TENANT, 'spec')).key;
  }, 300_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await env?.stop();
  });

  it('lists every renamed RPC', () => {
    expect(ALIASES.map(({ alias }) => alias)).toContain('mem.rpc.recall');
  });

  it.each(ALIASES.map(({ alias, spec }) => [alias, spec.subject, spec] as const))(
    'NATS: %s answers as %s',
    async (alias, _current, spec) => {
      const current = await outcome(env, spec, spec.subject);
      expect(await outcome(env, spec, alias)).toEqual(current);
    },
  );

  const routes = ALIASES.filter(({ spec }) => spec.tenantScoped && spec.subject.startsWith('mem.rpc.'));
  it.each(routes.flatMap(({ spec }) => httpAliasPaths(spec).map((path) => [path, httpPath(spec)] as const)))(
    'HTTP: POST %s answers as POST %s',
    async (former, current) => {
      const asked = (path: string) => call('POST', path, { key, body: {} });
      const [before, after] = [await asked(current), await asked(former)];
      expect(before.status).not.toBe(404);
      expect({ status: after.status, json: after.json }).toEqual({
        status: before.status,
        json: before.json,
      });
    },
  );

  it('marks the former routes deprecated in the OpenAPI document, each naming the route that replaced it', async () => {
    const doc = (await call('GET', '/openapi.json')).json as {
      paths: Record<string, { post?: { deprecated?: boolean; summary: string } }>;
    };
    expect(doc.paths['/v1/recall']?.post).toMatchObject({
      deprecated: true,
      summary: expect.stringContaining('/v1/expand') as unknown,
    });
    expect(doc.paths['/v1/expand']?.post?.deprecated).toBeUndefined();
  });
});
