import { randomUUID } from 'node:crypto';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { fakeModel } from '@langchain/core/testing';
import { tool } from '@langchain/core/tools';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import {
  END,
  MessagesAnnotation,
  START,
  StateGraph,
  type LangGraphRunnableConfig,
} from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { EngramClient } from '@engram/client';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@engram/testing';
import { EngramStore } from './engram-store';

type State = typeof MessagesAnnotation.State;

/**
 * The agent loop as a graph node: Engram's prompt for the thread, the model's answer, the turn
 * to memory. No checkpointer: what an earlier turn said can only come back through Engram.
 */
function conversationGraph(model: BaseChatModel, store: EngramStore) {
  const respond = async (state: State, config: LangGraphRunnableConfig) => {
    const engram = EngramStore.of(config);
    const question = state.messages.at(-1)!;
    const prompt = await engram.buildPrompt(config, question);
    const answer = await model.invoke([...prompt, question], config);
    await engram.publishTurn(config, [question, answer]);
    return { messages: [answer] };
  };
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', respond)
    .addEdge(START, 'agent')
    .addEdge('agent', END)
    .compile({ store });
}

/** Whose memories a run is about: LangGraph's usual namespace, per user. */
const memoriesOf = (config: LangGraphRunnableConfig) => [
  'memories',
  String(config.configurable?.['user_id']),
];

/** Tools that keep and find memories in the graph's store, as LangGraph's long-term memory guide has them. */
const remember = tool(
  async ({ memory }: { memory: string }, config: LangGraphRunnableConfig) => {
    await config.store!.put(memoriesOf(config), randomUUID(), { text: memory });
    return `Saved: ${memory}`;
  },
  {
    name: 'remember',
    description: 'Keeps a memory about the user.',
    schema: z.object({ memory: z.string() }),
  },
);
const recall = tool(
  async ({ query }: { query: string }, config: LangGraphRunnableConfig) => {
    const found = await config.store!.search(memoriesOf(config), { query });
    return found.map((item) => String(item.value['text'])).join('\n') || 'Nothing remembered.';
  },
  { name: 'recall', description: 'Finds memories about the user.', schema: z.object({ query: z.string() }) },
);

function toolGraph(model: ReturnType<typeof fakeModel>, store: EngramStore) {
  const bound = model.bindTools([remember, recall]);
  const agent = async (state: State, config: LangGraphRunnableConfig) => ({
    messages: [await bound.invoke(state.messages, config)],
  });
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', agent)
    .addNode('tools', new ToolNode([remember, recall]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile({ store });
}

describe('a LangGraph graph with EngramStore (ingest, retrieval and context-builder running)', () => {
  let env: TestEnvironment;
  let client: EngramClient;
  let store: EngramStore;

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'langgraph_graph',
      processes: ['ingest', 'retrieval', 'context-builder'],
    });
    client = await EngramClient.connect({ servers: env.nats.url, tenant: 'acme', agent: 'concierge' });
    store = new EngramStore({ client });
    await client.putAgent({ name: 'Rosa', personality: 'Warm and brief.', userName: 'Ada' });
  });

  afterAll(async () => {
    await client?.close();
    await env?.stop();
  });

  const transcript = async (sessionKey: string) =>
    (await client.browse({ sessionKey })).messages.map((m) => `${m.role}: ${m.content}`);
  const stored = (sessionKey: string, count: number) =>
    waitFor(
      `${count} messages of ${sessionKey} stored`,
      async () => (await transcript(sessionKey)).length === count,
      15_000,
    );

  it("gives the second turn's prompt what the first turn said, through Engram", async () => {
    const model = fakeModel()
      .respond(new AIMessage('Noted: green tea, no sugar.'))
      .respond(new AIMessage('Green tea it is.'));
    const graph = conversationGraph(model, store);
    const config = { configurable: { thread_id: 'chat-tea' } };

    await graph.invoke(
      { messages: [new HumanMessage('Hi, I am Ada. I take my green tea without sugar.')] },
      config,
    );
    await stored('chat-tea', 2);
    const { messages } = await graph.invoke({ messages: [new HumanMessage('What should I drink?')] }, config);

    const secondPrompt = model.calls[1]!.messages.map((m: BaseMessage) => `${m.type}: ${m.text}`);
    expect(secondPrompt).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^system: .*Rosa/s),
        'human: Hi, I am Ada. I take my green tea without sugar.',
        'ai: Noted: green tea, no sugar.',
      ]),
    );
    expect(secondPrompt.at(-1)).toBe('human: What should I drink?');
    expect(messages.at(-1)!.text).toBe('Green tea it is.');
    await stored('chat-tea', 4);
  });

  it('saves a memory through a tool call, which a run on another thread finds', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'remember', args: { memory: 'Ada is allergic to peanuts' } }])
      .respond(new AIMessage('Noted.'))
      .respondWithTools([{ name: 'recall', args: { query: 'allergic' } }])
      .respond((messages) => new AIMessage(`From memory: ${messages.at(-1)!.text}`));
    const graph = toolGraph(model, store);
    const ada = (thread: string) => ({ configurable: { thread_id: thread, user_id: 'ada' } });

    await graph.invoke(
      { messages: [new HumanMessage('Remember: I am allergic to peanuts.')] },
      ada('chat-1'),
    );
    const { messages } = await graph.invoke(
      { messages: [new HumanMessage('What am I allergic to?')] },
      ada('chat-2'),
    );

    expect(messages.at(-1)!.text).toBe('From memory: Ada is allergic to peanuts');
    const [item] = await store.search(['memories', 'ada']);
    expect(item).toMatchObject({
      namespace: ['memories', 'ada'],
      value: { text: 'Ada is allergic to peanuts' },
    });
    // The memory is a fact of the agent like any other: Engram's own search finds it.
    const { hits } = await client.search({ query: 'peanuts', filters: { kinds: ['fact'] } });
    expect(hits.map((h) => h.content)).toContain('Ada is allergic to peanuts');
  });

  it("keeps users apart when each run is given its user's own store (one Engram agent per user)", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'remember', args: { memory: 'Ada collects stamps' } }])
      .respond(new AIMessage('Noted.'))
      .respondWithTools([{ name: 'recall', args: { query: 'stamps' } }])
      .respond((messages) => new AIMessage(messages.at(-1)!.text));
    const graph = toolGraph(model, store);
    const run = (user: string, text: string) =>
      graph.invoke(
        { messages: [new HumanMessage(text)] },
        {
          configurable: { thread_id: `hobby-${user}`, user_id: user },
          store: new EngramStore({ client, agent: user }),
        },
      );

    await run('ada', 'Remember that I collect stamps.');
    const { messages } = await run('bob', 'Do I collect stamps?');

    expect(messages.at(-1)!.text).toBe('Nothing remembered.');
    expect(await new EngramStore({ client, agent: 'ada' }).search(['memories', 'ada'])).toHaveLength(1);
    expect(await store.search(['memories', 'ada'], { query: 'stamps' })).toEqual([]);
  });

  it("puts the store's items in Engram's prompt for the agent, as its sticky facts", async () => {
    await store.put(['memories', 'ada'], 'diet', { text: 'Ada is vegetarian' });
    const [system] = await store.buildPrompt(
      { configurable: { thread_id: 'chat-dinner' } },
      'What should I cook?',
    );
    expect(system!.type).toBe('system');
    expect(system!.text).toContain('Ada is vegetarian');
  });

  it('stores a streamed answer as one turn, once', async () => {
    const answer = 'Green tea, as you like it.';
    const graph = conversationGraph(new FakeListChatModel({ responses: [answer, 'Goodbye, Ada.'] }), store);
    const config = { configurable: { thread_id: 'chat-stream' } };

    const chunks: string[] = [];
    const stream = await graph.stream(
      { messages: [new HumanMessage('What should I drink?')] },
      { ...config, streamMode: 'messages' },
    );
    for await (const [chunk] of stream) chunks.push((chunk as BaseMessage).text);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(answer);

    await graph.invoke({ messages: [new HumanMessage('Thanks, bye!')] }, config);
    await stored('chat-stream', 4);
    expect(await transcript('chat-stream')).toEqual([
      'user: What should I drink?',
      `assistant: ${answer}`,
      'user: Thanks, bye!',
      'assistant: Goodbye, Ada.',
    ]);
  });
});
