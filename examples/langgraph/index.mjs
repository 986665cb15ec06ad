// A LangGraph.js agent with Engram as its store: tools keep and find memories in it (store.put,
// store.search), each thread's turn goes to Engram, and Engram builds the prompt. With `npm start`
// running: node examples/langgraph/index.mjs (NATS_URL, default nats://127.0.0.1:4222, tenant "acme").
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { tool } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { EngramClient } from '@engram/client';
import { EngramStore } from '@engram/langgraph';

// Your chat model goes here (ChatOpenAI, ChatAnthropic …); LangChain's fake model plays it,
// answering as scripted: keep a memory on the first thread, find it on the second.
const model = fakeModel()
  .respond(
    new AIMessage({
      content: '',
      tool_calls: [
        { id: 'call-milk', name: 'remember', args: { topic: 'milk', memory: 'Ada takes oat milk' } },
      ],
    }),
  )
  .respond(new AIMessage('Noted, Ada: oat milk from now on.'))
  .respond(
    new AIMessage({
      content: '',
      tool_calls: [{ id: 'call-recall', name: 'recall', args: { query: 'milk' } }],
    }),
  )
  .respond(
    (messages) =>
      new AIMessage(`A flat white with ${/oat milk/.test(messages.at(-1).text) ? 'oat milk' : 'milk'}.`),
  );

// Memories per user, in the store the graph was compiled with (config.store).
const memoriesOf = (config) => ['memories', config.configurable.user_id];
const remember = tool(
  async ({ topic, memory }, config) => {
    await config.store.put(memoriesOf(config), topic, { text: memory });
    return `Saved: ${memory}`;
  },
  {
    name: 'remember',
    description: 'Keeps a memory about the user.',
    schema: z.object({ topic: z.string(), memory: z.string() }),
  },
);
const recall = tool(
  async ({ query }, config) => {
    const found = await config.store.search(memoriesOf(config), { query });
    return found.map((item) => item.value.text).join('\n') || 'Nothing remembered.';
  },
  { name: 'recall', description: 'Finds memories about the user.', schema: z.object({ query: z.string() }) },
);
const tools = [remember, recall];

// The agent node: Engram's prompt for the thread, the model, and the finished turn to Engram.
async function agent(state, config) {
  const engram = EngramStore.of(config);
  const turn = state.messages.slice(state.messages.findLastIndex((m) => m.type === 'human'));
  const prompt = await engram.buildPrompt(config, turn[0]);
  const answer = await model.bindTools(tools).invoke([...prompt, ...turn], config);
  // Once the answer is final, the whole turn (question, tool calls, results, answer) goes to memory.
  if (!answer.tool_calls?.length) await engram.publishTurn(config, [...turn, answer]);
  return { messages: [answer] };
}

let engram;
try {
  engram = await EngramClient.connect({
    servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    tenant: 'acme',
    agent: 'barista',
  });
  await engram.putAgent({
    name: 'Rosa',
    personality: 'Warm and brief.',
    userName: 'Ada',
    tools: ['remember', 'recall'],
  });

  // The two lines: Engram as the graph's store.
  const store = new EngramStore({ client: engram, index: { fields: ['text'] } });
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('agent', agent)
    .addNode('tools', new ToolNode(tools))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile({ store });

  // Two threads of one user; the message ids make each turn's id, so a rerun stores nothing twice.
  for (const [thread, id, text] of [
    ['espresso-1', 'espresso-1-q1', 'Hi, I am Ada. Please remember that I take oat milk.'],
    ['espresso-2', 'espresso-2-q1', 'Make me my usual coffee.'],
  ]) {
    console.log(`thread ${thread}: user: ${text}`);
    const input = { messages: [new HumanMessage({ id, content: text })] };
    const config = { configurable: { thread_id: thread, user_id: 'ada' }, streamMode: 'updates' };
    for await (const update of await graph.stream(input, config)) {
      for (const message of Object.values(update).flatMap((u) => u.messages)) {
        for (const call of message.tool_calls ?? [])
          console.log(`  tool call: ${call.name} ${JSON.stringify(call.args)}`);
        if (message.type === 'tool') console.log(`  tool result: ${message.text}`);
        else if (message.text) console.log(`  assistant: ${message.text}`);
      }
    }
  }
  const kept = await store.get(['memories', 'ada'], 'milk');
  console.log(
    `store: memories/ada/milk = ${JSON.stringify(kept.value)} (since ${kept.createdAt.toISOString().slice(0, 10)})`,
  );
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await engram?.close();
}
