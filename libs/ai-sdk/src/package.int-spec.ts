import { resolve } from 'node:path';
import { freePort, DUAL_EXPORTS, installPacked, type PackedPackage } from '@engram/testing';

/**
 * `npm pack` of libs/ai-sdk (built: dist from tsup), installed outside the repository with its
 * declared dependencies and peers only (installPacked): a package that leaned on workspace code
 * it did not bundle, or on an npm package it does not declare, would fail to load there.
 */
describe('the packed @engram/ai-sdk', () => {
  let pack: PackedPackage;
  let nowhere: string;

  beforeAll(async () => {
    pack = installPacked(resolve(__dirname, '..'));
    // Engram is not running there: the memory's failures go to onError, the answers come anyway.
    nowhere = `http://127.0.0.1:${await freePort()}`;
  });

  afterAll(() => pack?.remove());

  it('holds its builds and README only, and is publishable: public, exports for import and require, importing only what it declares', () => {
    expect(pack.publication()).toEqual({
      name: '@engram/ai-sdk',
      mainExport: DUAL_EXPORTS,
      private: undefined,
      peerDependencies: ['@engram/client', 'ai', 'zod'],
      dependencies: ['@bufbuild/protobuf', 'safe-regex2'],
      missingFiles: [],
      strayFiles: [],
      undeclaredImports: [],
    });
  });

  it('imports as ESM outside the repository: the tools and the middleware around the AI SDK mock', () => {
    pack.write(
      'main.mjs',
      `import { EngramClient } from '@engram/client';
import { engramMemory, engramTools } from '@engram/ai-sdk';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

const engram = EngramClient.http({ baseUrl: '${nowhere}', apiKey: 'egm_test', agent: 'concierge', retry: { retries: 0 } });
const failures = [];
const memory = engramMemory(engram, { sessionKey: 'chat-1', onError: (error) => failures.push(error.name) });
const model = new MockLanguageModelV4({
  doGenerate: async () => ({
    content: [{ type: 'text', text: 'Hello Ada!' }],
    finishReason: { unified: 'stop', raw: undefined },
    usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } },
    warnings: [],
  }),
});
const { text } = await generateText({ model: wrapLanguageModel({ model, middleware: memory }), tools: engramTools(engram), prompt: 'Hi' });
await memory.flush();
console.log(JSON.stringify({ text, tools: Object.keys(engramTools(engram)), failures }));
`,
    );
    expect(JSON.parse(pack.node(['main.mjs']))).toEqual({
      text: 'Hello Ada!',
      tools: ['memory_search', 'memory_save', 'memory_forget', 'memory_browse', 'context_build'],
      failures: ['EngramUnavailableError', 'EngramUnavailableError'],
    });
  });

  it('requires as CommonJS too (the AI SDK itself is ESM-only: Node 20.19+ requires it)', () => {
    pack.write(
      'main.cjs',
      `const { EngramClient } = require('@engram/client');
const { engramMemory, engramTools } = require('@engram/ai-sdk');
const { wrapLanguageModel } = require('ai');

const engram = EngramClient.http({ baseUrl: '${nowhere}', apiKey: 'egm_test', agent: 'concierge' });
const tools = engramTools(engram, { include: ['memory_save'] });
const model = wrapLanguageModel({ model: { specificationVersion: 'v4', provider: 'p', modelId: 'm', supportedUrls: {} }, middleware: engramMemory(engram, { sessionKey: 'chat-1' }) });
console.log(JSON.stringify({ tools: Object.keys(tools), save: typeof tools.memory_save.execute, modelId: model.modelId }));
`,
    );
    expect(JSON.parse(pack.node(['main.cjs']))).toEqual({
      tools: ['memory_save'],
      save: 'function',
      modelId: 'm',
    });
  });

  it("type-checks a TypeScript consumer against the package's own declarations", () => {
    pack.write(
      'consumer.ts',
      `import { EngramClient } from '@engram/client';
import { engramMemory, engramTools, type EngramMemoryOptions } from '@engram/ai-sdk';
import { generateText, wrapLanguageModel, type LanguageModel } from 'ai';

export async function answer(engram: EngramClient, model: Exclude<LanguageModel, string>): Promise<string> {
  const options: EngramMemoryOptions = { sessionKey: 'chat-1', budgetTokens: 4000, onError: (error) => console.warn(error) };
  const memory = engramMemory(engram, options);
  const tools = engramTools(engram, { sessionKey: 'chat-1', include: ['memory_search', 'memory_save'] });
  // @ts-expect-error: memory_forget was not included
  void tools.memory_forget;
  // @ts-expect-error: the session is required
  engramMemory(engram, {});
  const { text } = await generateText({ model: wrapLanguageModel({ model, middleware: memory }), tools, prompt: 'Hi' });
  await memory.flush();
  return text;
}
`,
    );
    expect(pack.typecheck('consumer.ts')).toBe('');
  });
});
