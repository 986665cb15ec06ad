// The agent loop with @engram/client: before each model call the prompt comes from Engram,
// after it the turn goes to memory. With `npm start` running: node examples/agent-loop/index.mjs
// It speaks NATS (NATS_URL, default nats://127.0.0.1:4222) as tenant "acme"; with ENGRAM_API_KEY
// set it goes through the HTTP API instead (ENGRAM_URL, default http://127.0.0.1:8080).
import { EngramClient } from '@engram/client';

// Your model call goes here (OpenAI, Anthropic, Ollama …); this stand-in answers briefly.
async function callModel(messages) {
  return `(${messages.length} messages in) Glad to help with: ${messages.at(-1).content}`;
}

let engram;
try {
  engram = process.env.ENGRAM_API_KEY
    ? EngramClient.http({
        baseUrl: process.env.ENGRAM_URL ?? 'http://127.0.0.1:8080',
        apiKey: process.env.ENGRAM_API_KEY,
        agent: 'concierge',
      })
    : await EngramClient.connect({
        servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
        tenant: 'acme',
        agent: 'concierge',
      });

  // Once: who the agent is (or import a workspace folder: npm run engram -- workspace import).
  await engram.putAgent({
    name: 'Rosa',
    personality: 'Warm and brief.',
    userName: 'Ada',
    tools: ['order_lookup'],
  });

  for (const [i, userMessage] of [
    'Hi, I am Ada. I prefer metric units.',
    'Where is my order 1042?',
  ].entries()) {
    // 1. Before the model call: the prompt, within budget.
    const context = await engram.buildContext({
      sessionKey: 'chat-7',
      currentMessage: userMessage,
      model: 'gpt-4o-mini',
    });
    const layers = [...new Set(context.blocks.map((b) => b.layer))].join(', ');
    console.log(`prompt: ${context.totalTokens} of ${context.ceilingTokens} tokens (${layers})`);
    // 2. The model call: the blocks, then the user's message.
    const prompt = context.blocks.map((b) => ({ role: b.role, content: b.text }));
    const answer = await callModel([...prompt, { role: 'user', content: userMessage }]);
    console.log(`assistant: ${answer}`);
    // 3. After it: the turn goes to memory, stored once per turnId however often this runs.
    await engram.publishTurn({
      turnId: `chat-7-${i}`,
      sessionKey: 'chat-7',
      messages: [
        { role: 'user', content: userMessage },
        { role: 'assistant', content: answer },
      ],
    });
  }
} catch (error) {
  // Every failure is an EngramError whose message says what to do ("is it running (`npm start`)?" …).
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await engram?.close();
}
