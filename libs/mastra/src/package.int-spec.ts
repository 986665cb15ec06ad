import { resolve } from 'node:path';
import { freePort, DUAL_EXPORTS, installPacked, type PackedPackage } from '@engram/testing';

/**
 * `npm pack` of libs/mastra (built: dist from tsup), installed outside the repository with its
 * declared dependencies and peers only (installPacked): the client and Mastra are the
 * application's own.
 */
describe('the packed @engram/mastra', () => {
  let pack: PackedPackage;

  beforeAll(() => {
    pack = installPacked(resolve(__dirname, '..'));
  });

  afterAll(() => pack?.remove());

  it('holds its builds and README only, and is publishable: public, exports for import and require, importing only what it declares', () => {
    expect(pack.publication()).toEqual({
      name: '@engram/mastra',
      mainExport: DUAL_EXPORTS,
      private: undefined,
      peerDependencies: ['@engram/client', '@mastra/core', 'zod'],
      dependencies: ['@bufbuild/protobuf'],
      missingFiles: [],
      strayFiles: [],
      undeclaredImports: [],
    });
  });

  it('imports as ESM outside the repository, over the application’s own client and Mastra', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    pack.write(
      'main.mjs',
      `import { EngramClient, EngramUnavailableError } from '@engram/client';
import { MastraMemory } from '@mastra/core/memory';
import { EngramMemory } from '@engram/mastra';
const engram = EngramClient.http({ baseUrl: '${nowhere}', apiKey: 'egm_test', retry: { retries: 0 } });
const memory = new EngramMemory({ engram });
const failure = await memory.getThreadById({ threadId: 'chat-7' }).catch((error) => error);
console.log(JSON.stringify({
  memory: memory instanceof MastraMemory,
  agent: memory.agentOf('ada'),
  tools: Object.keys(memory.listTools()),
  unavailable: failure instanceof EngramUnavailableError,
}));
`,
    );
    expect(JSON.parse(pack.node(['main.mjs']))).toEqual({
      memory: true,
      agent: 'ada',
      tools: ['remember', 'searchMemory'],
      unavailable: true,
    });
  });

  it('requires as CommonJS too', () => {
    pack.write(
      'main.cjs',
      `const { EngramClient } = require('@engram/client');
const { MastraMemory } = require('@mastra/core/memory');
const { EngramMemory, resourceAgent } = require('@engram/mastra');
const memory = new EngramMemory({ engram: EngramClient.http({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }), agent: 'concierge' });
console.log(JSON.stringify({ memory: memory instanceof MastraMemory, agent: memory.agentOf('ada'), safe: resourceAgent('ada@example.com') }));
`,
    );
    expect(JSON.parse(pack.node(['main.cjs']))).toEqual({
      memory: true,
      agent: 'concierge',
      safe: expect.stringMatching(/^ada_example_com-[0-9a-f]{8}$/),
    });
  });

  it("type-checks a TypeScript consumer against the package's own declarations", () => {
    pack.write(
      'consumer.ts',
      `import { Agent } from '@mastra/core/agent';
import { EngramClient } from '@engram/client';
import { EngramMemory } from '@engram/mastra';

export function concierge(engram: EngramClient): Agent {
  const memory = new EngramMemory({ engram, lastMessages: 20 });
  // @ts-expect-error: lastMessages is a number
  new EngramMemory({ engram, lastMessages: 'all' });
  return new Agent({ id: 'rosa', name: 'Rosa', instructions: 'Be brief.', model: 'openai/gpt-4o-mini', memory });
}
`,
    );
    // Mastra's own declarations do not compile without skipLibCheck, which Mastra projects set.
    expect(pack.typecheck('consumer.ts', { skipLibCheck: true })).toBe('');
  });
});
