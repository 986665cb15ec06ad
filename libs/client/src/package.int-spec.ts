import { resolve } from 'node:path';
import { freePort, DUAL_EXPORTS, installPacked, type PackedPackage } from '@engram/testing';

/**
 * `npm pack` of libs/client (built: dist from tsup), installed outside the repository with its
 * declared dependencies only (installPacked): a package that leaned on workspace code it did not
 * bundle would fail to load there.
 */
describe('the packed @engram/client', () => {
  let pack: PackedPackage;

  beforeAll(() => {
    pack = installPacked(resolve(__dirname, '..'));
  });

  afterAll(() => pack?.remove());

  it('holds its builds and README only, and is publishable: public, exports for import and require, importing only what it declares', () => {
    expect(pack.publication()).toEqual({
      name: '@engram/client',
      mainExport: DUAL_EXPORTS,
      private: undefined,
      peerDependencies: [],
      dependencies: [
        '@bufbuild/protobuf',
        '@nats-io/jetstream',
        '@nats-io/transport-node',
        'safe-regex2',
        'zod',
      ],
      missingFiles: [],
      strayFiles: [],
      undeclaredImports: [],
    });
  });

  it('imports as ESM outside the repository and answers with its own error classes', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    pack.write(
      'main.mjs',
      `import { EngramClient, EngramError, EngramUnavailableError, Rpcs, httpPath } from '@engram/client';
const client = EngramClient.http({ baseUrl: '${nowhere}', apiKey: 'egm_test', retry: { retries: 0 } });
const failure = await client.search({ query: 'units' }).catch((error) => error);
console.log(JSON.stringify({
  unavailable: failure instanceof EngramUnavailableError,
  engram: failure instanceof EngramError,
  message: failure.message,
  route: httpPath(Rpcs.beingScenesAdd),
}));
`,
    );
    expect(JSON.parse(pack.node(['main.mjs']))).toEqual({
      unavailable: true,
      engram: true,
      message: `Engram is not reachable at ${nowhere}: is it running (\`npm start\`)? retried 0 times (POST /v1/search: ECONNREFUSED)`,
      route: '/v1/being/scenes/add',
    });
  });

  it('requires as CommonJS too', () => {
    pack.write(
      'main.cjs',
      `const { EngramClient, EngramInvalidArgumentError } = require('@engram/client');
const client = EngramClient.http({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', agent: 'concierge' });
client.publishTurn({ turnId: 't-1', messages: [] }).catch((error) => {
  console.log(JSON.stringify({ invalid: error instanceof EngramInvalidArgumentError, fields: error.fieldViolations.map((v) => v.field) }));
});
`,
    );
    expect(JSON.parse(pack.node(['main.cjs']))).toEqual({
      invalid: true,
      fields: ['sessionKey', 'messages'],
    });
  });

  it("type-checks a TypeScript consumer against the package's own declarations", () => {
    pack.write(
      'consumer.ts',
      `import { EngramClient, EngramInvalidArgumentError, type SearchResponse } from '@engram/client';

export async function search(client: EngramClient): Promise<string[]> {
  const found: SearchResponse = await client.search({ query: 'units', topK: 5, filters: { agent: 'concierge' } });
  // @ts-expect-error: a SearchRequest has no field "question"
  await client.search({ question: 'units' });
  try {
    await client.publishTurn({ turnId: 't-1', sessionKey: 'chat-1', messages: [{ role: 'user', content: 'Hi' }] });
  } catch (error) {
    if (error instanceof EngramInvalidArgumentError) return error.fieldViolations.map((v) => v.field);
  }
  return found.hits.map((hit) => hit.content);
}
`,
    );
    expect(pack.typecheck('consumer.ts')).toBe('');
  });
});
