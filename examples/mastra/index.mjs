// A Mastra agent with Engram as its memory (EngramMemory): the thread's history comes from
// Engram's transcript, what Engram remembers goes into the prompt, and the agent keeps facts with
// its `remember` tool. With `npm start` running: node examples/mastra/index.mjs
// It speaks NATS (NATS_URL, default nats://127.0.0.1:4222) as tenant "acme"; with ENGRAM_API_KEY
// set it goes through the HTTP API instead (ENGRAM_URL, default http://127.0.0.1:8080).
import { randomUUID } from 'node:crypto';
import { Agent } from '@mastra/core/agent';
import { MastraLanguageModelV2Mock } from '@mastra/core/test-utils/llm-mock';
import { EngramClient } from '@engram/client';
import { EngramMemory } from '@engram/mastra';

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

// Mastra's mock model stands in for yours (any AI SDK model goes here): it remembers a fact,
// then answers from what it was sent.
let calls = 0;
const model = new MastraLanguageModelV2Mock({
  doGenerate: async () =>
    calls++ === 0
      ? {
          content: [
            {
              type: 'tool-call',
              toolCallId: 'call-seat',
              toolName: 'remember',
              input: '{"fact":"Ada prefers window seats."}',
            },
          ],
          finishReason: 'tool-calls',
          usage,
          warnings: [],
        }
      : {
          content: [{ type: 'text', text: 'Noted, Ada: window seats from now on.' }],
          finishReason: 'stop',
          usage,
          warnings: [],
        },
  doStream: async ({ prompt }) => ({ stream: streamOf(booking(JSON.stringify(prompt))) }),
});

/** The second answer: the seat from Engram's memory in the prompt, the name from the thread's history. */
function booking(prompt) {
  const seat = prompt.includes('window seats') ? 'a window seat' : 'a seat';
  const name = prompt.includes('I am Ada') ? 'Ada' : 'you';
  return `Booking ${seat} on the 9:40 to Lyon for ${name}.`;
}

/** A model stream saying the text word by word. */
function streamOf(text) {
  const words = text.split(/(?<= )/);
  const parts = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...words.map((delta) => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: 'stop', usage },
  ];
  return new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) });
}

let engram;
try {
  engram = process.env.ENGRAM_API_KEY
    ? EngramClient.http({
        baseUrl: process.env.ENGRAM_URL ?? 'http://127.0.0.1:8080',
        apiKey: process.env.ENGRAM_API_KEY,
      })
    : await EngramClient.connect({
        servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
        tenant: 'acme',
      });

  // One Engram agent for every thread (by default each resource is its own), and once, who it is.
  const memory = new EngramMemory({ engram, agent: 'mastra-travel' });
  await engram.putAgent({ agent: 'mastra-travel', name: 'Rosa', job: 'Books train journeys.' });
  const agent = new Agent({
    id: 'rosa',
    name: 'Rosa',
    instructions: 'You book trains. Be brief.',
    model,
    memory,
  });

  // A new thread each time this runs (give the same thread id to carry one on).
  const thread = randomUUID();
  const options = { memory: { thread, resource: 'ada' } };
  console.log(`thread: ${thread}`);

  const first = 'Hi, I am Ada. I prefer window seats.';
  console.log(`user: ${first}`);
  console.log(`assistant: ${(await agent.generate(first, options)).text}`);

  const second = 'Book me a seat on the 9:40 to Lyon.';
  console.log(`user: ${second}`);
  const streamed = await agent.stream(second, options);
  process.stdout.write('assistant: ');
  for await (const text of streamed.textStream) process.stdout.write(text);
  console.log();

  const { messages } = await memory.recall({ threadId: thread, resourceId: 'ada' });
  console.log(`the thread holds: ${messages.map((m) => m.role).join(', ')}`);
} catch (error) {
  // Every failure is an EngramError whose message says what to do ("is it running (`npm start`)?" …).
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await engram?.close();
}
