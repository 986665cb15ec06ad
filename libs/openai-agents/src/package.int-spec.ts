import { resolve } from 'node:path';
import { freePort, DUAL_EXPORTS, installPacked, type PackedPackage } from '@engram/testing';

/**
 * `npm pack` of libs/openai-agents (built: dist from tsup), installed outside the repository with
 * its declared dependencies and peers only (installPacked): the client and the Agents SDK are the
 * application's own.
 */
describe('the packed @engram/openai-agents', () => {
  let pack: PackedPackage;

  beforeAll(() => {
    pack = installPacked(resolve(__dirname, '..'));
  });

  afterAll(() => pack?.remove());

  it('holds its builds and README only, and is publishable: public, exports for import and require, importing only what it declares', () => {
    expect(pack.publication()).toEqual({
      name: '@engram/openai-agents',
      mainExport: DUAL_EXPORTS,
      private: undefined,
      peerDependencies: ['@engram/client', '@openai/agents-core', 'zod'],
      dependencies: ['@bufbuild/protobuf'],
      missingFiles: [],
      strayFiles: [],
      undeclaredImports: [],
    });
  });

  it('imports as ESM outside the repository, over the application’s own client', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    pack.write(
      'main.mjs',
      `import { EngramClient, EngramUnavailableError } from '@engram/client';
import { EngramSession, engramTools } from '@engram/openai-agents';
const engram = EngramClient.http({ baseUrl: '${nowhere}', apiKey: 'egm_test', agent: 'concierge', retry: { retries: 0 } });
const session = new EngramSession({ engram, sessionKey: 'chat-7' });
const failure = await session.getItems().catch((error) => error);
console.log(JSON.stringify({
  id: await session.getSessionId(),
  tools: engramTools(engram).map((t) => t.name),
  unavailable: failure instanceof EngramUnavailableError,
}));
`,
    );
    expect(JSON.parse(pack.node(['main.mjs']))).toEqual({
      id: 'chat-7',
      tools: ['remember', 'search_memory'],
      unavailable: true,
    });
  });

  it('requires as CommonJS too', () => {
    pack.write(
      'main.cjs',
      `const { EngramClient } = require('@engram/client');
const { EngramSession } = require('@engram/openai-agents');
const session = new EngramSession({ engram: EngramClient.http({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', agent: 'concierge' }) });
console.log(JSON.stringify({ agent: session.agent, random: /^[0-9a-f-]{36}$/.test(session.sessionKey) }));
`,
    );
    expect(JSON.parse(pack.node(['main.cjs']))).toEqual({ agent: 'concierge', random: true });
  });

  it("type-checks a TypeScript consumer against the package's own declarations", () => {
    pack.write(
      'consumer.ts',
      `import { EngramClient } from '@engram/client';
import { Agent, run, type Session } from '@openai/agents-core';
import { EngramSession, engramContext, engramTools } from '@engram/openai-agents';

export async function chat(engram: EngramClient, input: string): Promise<unknown> {
  const session: Session = new EngramSession({ engram, sessionKey: 'chat-7' });
  const agent = new Agent({ name: 'Rosa', instructions: 'Be brief.', tools: engramTools(engram) });
  // @ts-expect-error: the session key is a string
  new EngramSession({ engram, sessionKey: 7 });
  const result = await run(agent, input, { session, callModelInputFilter: engramContext(new EngramSession({ engram })) });
  return result.finalOutput;
}
`,
    );
    expect(pack.typecheck('consumer.ts')).toBe('');
  });
});
