import { resolve } from 'node:path';
import { freePort, DUAL_EXPORTS, installPacked, type PackedPackage } from '@engram/testing';

/**
 * `npm pack` of libs/langgraph (built: dist from tsup), installed outside the repository with its
 * peers only (@engram/client, @langchain/langgraph, @langchain/core): ESM, CommonJS and a
 * TypeScript consumer, as an application would use them.
 */
describe('the packed @engram/langgraph', () => {
  let pack: PackedPackage;
  let nowhere: string;

  beforeAll(async () => {
    pack = installPacked(resolve(__dirname, '..'));
    nowhere = `http://127.0.0.1:${await freePort()}`;
  });

  afterAll(() => pack?.remove());

  it('holds its builds and README only, and is publishable: public, exports for import and require, importing only what it declares', () => {
    expect(pack.publication()).toEqual({
      name: '@engram/langgraph',
      mainExport: DUAL_EXPORTS,
      private: undefined,
      peerDependencies: ['@engram/client', '@langchain/core', '@langchain/langgraph'],
      dependencies: [],
      missingFiles: [],
      strayFiles: [],
      undeclaredImports: [],
    });
  });

  it("imports as ESM: a LangGraph store, compiled into a graph, failing with Engram's own errors", () => {
    pack.write(
      'main.mjs',
      `import { BaseStore, MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { EngramClient, EngramUnavailableError } from '@engram/client';
import { EngramStore } from '@engram/langgraph';
const client = EngramClient.http({ baseUrl: '${nowhere}', apiKey: 'egm_test', agent: 'concierge', retry: { retries: 0 } });
const store = new EngramStore({ client });
const graph = new StateGraph(MessagesAnnotation).addNode('agent', () => ({})).addEdge('__start__', 'agent').compile({ store });
const failure = await store.get(['memories', 'ada'], 'drink').catch((error) => error);
console.log(JSON.stringify({ store: store instanceof BaseStore, compiled: graph.store === store, agent: store.agent, unavailable: failure instanceof EngramUnavailableError }));
`,
    );
    expect(JSON.parse(pack.node(['main.mjs']))).toEqual({
      store: true,
      compiled: true,
      agent: 'concierge',
      unavailable: true,
    });
  });

  it('requires as CommonJS too, refusing what LangGraph refuses before Engram is asked', () => {
    pack.write(
      'main.cjs',
      `const { BaseStore } = require('@langchain/langgraph');
const { EngramClient } = require('@engram/client');
const { EngramStore } = require('@engram/langgraph');
const store = new EngramStore({ client: EngramClient.http({ baseUrl: '${nowhere}', apiKey: 'k' }), agent: 'barista' });
store.batch([{ namespace: ['memories', 'a:b'], key: 'k', value: { text: 'x' } }]).catch((error) => {
  console.log(JSON.stringify({ store: store instanceof BaseStore, refused: error.message }));
});
`,
    );
    expect(JSON.parse(pack.node(['main.cjs']))).toEqual({
      store: true,
      refused: expect.stringMatching(/^Invalid namespace label "a:b"/),
    });
  });

  it("type-checks a TypeScript consumer against the package's own declarations", () => {
    pack.write(
      'consumer.ts',
      `import { HumanMessage } from '@langchain/core/messages';
import { MessagesAnnotation, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import type { EngramClient } from '@engram/client';
import { EngramStore, type SearchItem } from '@engram/langgraph';

export function graphOf(client: EngramClient) {
  const store = new EngramStore({ client, agent: 'concierge', index: { fields: ['text'] } });
  // @ts-expect-error: an EngramStore needs a client
  new EngramStore({ agent: 'concierge' });
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state, config: LangGraphRunnableConfig) => {
      const engram = EngramStore.of(config);
      const found: SearchItem[] = await engram.search(['memories', 'ada'], { query: 'tea', limit: 3 });
      const prompt = await engram.buildPrompt(config, state.messages.at(-1)!);
      await engram.publishTurn(config, [new HumanMessage({ id: 'q-1', content: 'Hi' })]);
      return { messages: [...prompt, new HumanMessage(found.map((item) => String(item.value['text'])).join('\\n'))] };
    })
    .addEdge('__start__', 'agent')
    .compile({ store });
}
`,
    );
    expect(pack.typecheck('consumer.ts')).toBe('');
  });
});
