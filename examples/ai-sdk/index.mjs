// Engram memory for the Vercel AI SDK: the prompt comes from Engram and every turn goes to memory
// (engramMemory), and the model can call Engram's memory tools (engramTools). With `npm start`
// running: node examples/ai-sdk/index.mjs (NATS_URL, default nats://127.0.0.1:4222, tenant "acme").
import { EngramClient } from '@engram/client';
import { engramMemory, engramTools } from '@engram/ai-sdk';
import { generateText, isStepCount, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

const SESSION = 'ai-sdk-chat';

// The AI SDK's mock model stands in for yours (openai('gpt-4o-mini') …): it answers from its prompt.
const yourModel = new MockLanguageModelV4({
  modelId: 'gpt-4o-mini',
  doGenerate: async ({ prompt }) => answerFrom(prompt),
});

let engram;
try {
  engram = await EngramClient.connect({
    servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    tenant: 'acme',
    agent: 'trip-planner',
  });
  await engram.putAgent({ name: 'Rosa', personality: 'Warm and brief.', userName: 'Ada' });

  // The two lines: memory around the model, and the memory tools for it to call.
  const memory = engramMemory(engram, { sessionKey: SESSION, onError: fail });
  const model = wrapLanguageModel({ model: yourModel, middleware: memory });
  const tools = engramTools(engram, { sessionKey: SESSION });

  const messages = [];
  for (const [i, said] of [
    'Hi! I prefer metric units.',
    'Please remember: my flight lands at 9:40.',
  ].entries()) {
    messages.push({ role: 'user', content: said });
    const result = await generateText({
      model,
      tools,
      stopWhen: isStepCount(3),
      messages,
      // Your chat message's id: the turn is stored once however often this runs.
      providerOptions: { engram: { turnId: `${SESSION}-${i}` } },
    });
    for (const call of result.steps.flatMap((step) => step.toolResults))
      console.log(`tool ${call.toolName}: ${call.output}`);
    console.log(`assistant: ${result.text}`);
    messages.push(...result.response.messages);
  }
  await memory.flush();
} catch (error) {
  fail(error);
} finally {
  await engram?.close();
}

/** A failure of Engram or of the example: its message, and a failed exit. */
function fail(error) {
  console.error(error.message);
  process.exitCode = 1;
}

/**
 * The mock model's answer, from its prompt: it saves what it is asked to remember (memory_save),
 * says so once the tool answered, and otherwise introduces itself by the name Engram's identity
 * block gives it, minding the units the conversation asked for.
 */
function answerFrom(prompt) {
  const textOf = (m) =>
    typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('');
  const said = prompt
    .filter((m) => m.role !== 'tool')
    .map(textOf)
    .join('\n');
  const units = said.includes('metric') ? 'metric units' : 'any units';
  if (prompt.at(-1).role === 'tool') return reply({ type: 'text', text: `Saved. I will keep to ${units}.` });
  const asked = /Please remember: (.*)/.exec(textOf(prompt.findLast((m) => m.role === 'user')));
  if (asked) {
    const input = JSON.stringify({ content: `Ada: ${asked[1]}` });
    return reply({ type: 'tool-call', toolCallId: 'call-1', toolName: 'memory_save', input });
  }
  const name = /^You are (\w+)\./m.exec(said)?.[1] ?? 'your assistant';
  return reply({ type: 'text', text: `Hello Ada, I am ${name}. I will keep to ${units}.` });
}

/** A mock model's answer holding one part. */
function reply(part) {
  return {
    content: [part],
    finishReason: { unified: part.type === 'tool-call' ? 'tool-calls' : 'stop', raw: undefined },
    usage: { inputTokens: { total: 0 }, outputTokens: { total: 0 } },
    warnings: [],
  };
}
