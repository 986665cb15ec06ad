// Runs a Mastra agent whose memory is EngramMemory, in Node as an application does: jest's module
// sandbox cannot run Mastra's agent loop (its CommonJS build imports the ES module p-map with
// import()). Mastra's own mock model plays the model.
//
//   node run-agent.mjs '{"servers": "nats://…", "instructions": "…", "replies": [...], "calls": [...]}'
//
// replies: what the model answers, call by call: a text, or {"tool": name, "input": {...}}.
// calls: [{"input": text, "thread": id, "resource": id, "stream": bool}], run in order by one agent.
// Prints {"answers": [{"text", "chunks"}], "prompts": [["role: text", …] for each model call]}.
import { Agent } from '@mastra/core/agent';
import { MastraLanguageModelV2Mock } from '@mastra/core/test-utils/llm-mock';
import { EngramClient } from '@engram/client';
import { EngramMemory } from '@engram/mastra';

const { servers, instructions, replies, calls } = JSON.parse(process.argv[2]);
const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
let next = 0;

/** The model's answer to a generate call: the next reply. */
function generated() {
  const reply = replies[next++] ?? 'No more replies.';
  if (typeof reply === 'string')
    return { content: [{ type: 'text', text: reply }], finishReason: 'stop', usage, warnings: [] };
  const call = {
    type: 'tool-call',
    toolCallId: `call-${next}`,
    toolName: reply.tool,
    input: JSON.stringify(reply.input),
  };
  return { content: [call], finishReason: 'tool-calls', usage, warnings: [] };
}

/** The model's answer to a stream call: the next reply, a text, in two pieces. */
function streamed() {
  const text = replies[next++] ?? 'No more replies.';
  const half = Math.ceil(text.length / 2);
  const parts = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: text.slice(0, half) },
    { type: 'text-delta', id: 't', delta: text.slice(half) },
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: 'stop', usage },
  ];
  return { stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }) };
}

/** A prompt as "role: text" lines (a tool result as its JSON). */
function said(prompt) {
  const text = (content) =>
    typeof content === 'string'
      ? content
      : content
          .map((p) => ('text' in p ? p.text : 'output' in p ? JSON.stringify(p.output) : `[${p.type}]`))
          .join('');
  return prompt.map((message) => `${message.role}: ${text(message.content)}`);
}

const prompts = [];
const model = new MastraLanguageModelV2Mock({
  doGenerate: async ({ prompt }) => (prompts.push(said(prompt)), generated()),
  doStream: async ({ prompt }) => (prompts.push(said(prompt)), streamed()),
});
const engram = await EngramClient.connect({ servers, tenant: 'acme' });
try {
  const agent = new Agent({
    id: 'rosa',
    name: 'Rosa',
    instructions,
    model,
    memory: new EngramMemory({ engram }),
  });
  const answers = [];
  for (const { input, thread, resource, stream } of calls) {
    const options = { memory: { thread, resource } };
    if (stream) {
      const output = await agent.stream(input, options);
      const chunks = [];
      for await (const chunk of output.textStream) chunks.push(chunk);
      answers.push({ text: chunks.join(''), chunks });
    } else {
      answers.push({ text: (await agent.generate(input, options)).text });
    }
  }
  console.log(JSON.stringify({ answers, prompts }));
} finally {
  await engram.close();
}
