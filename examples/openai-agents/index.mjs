// The OpenAI Agents SDK with Engram: the session's history is an Engram conversation
// (EngramSession), what Engram remembers goes into the instructions (engramContext), and the
// agent keeps facts with a tool (engramTools). With `npm start` running:
// node examples/openai-agents/index.mjs
// It speaks NATS (NATS_URL, default nats://127.0.0.1:4222) as tenant "acme"; with ENGRAM_API_KEY
// set it goes through the HTTP API instead (ENGRAM_URL, default http://127.0.0.1:8080).
import { Agent, run, setTracingDisabled } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall, modelResponder } from '@openai/agents/testing';
import { EngramClient } from '@engram/client';
import { EngramSession, engramContext, engramTools } from '@engram/openai-agents';

// The SDK's scripted model stands in for yours (any Agents SDK model goes here): it remembers a
// fact, then answers the second turn from what it was sent.
const model = new ScriptedModel([
  [functionCall('remember', { fact: 'Ada prefers window seats.' }, { callId: 'call-seat' })],
  [assistantMessage('Noted, Ada: window seats from now on.')],
  modelResponder(({ request }) => [assistantMessage(booking(request))]),
]);

/** The second answer: the seat from Engram's memory in the instructions, the name from the session's history. */
function booking({ systemInstructions = '', input }) {
  const seat = systemInstructions.includes('window seats') ? 'a window seat' : 'a seat';
  const name = JSON.stringify(input).includes('I am Ada') ? 'Ada' : 'you';
  return `Booking ${seat} on the 9:40 to Lyon for ${name}.`;
}

setTracingDisabled(true); // traces would otherwise be sent to OpenAI's platform

let engram;
try {
  engram = process.env.ENGRAM_API_KEY
    ? EngramClient.http({
        baseUrl: process.env.ENGRAM_URL ?? 'http://127.0.0.1:8080',
        apiKey: process.env.ENGRAM_API_KEY,
        agent: 'travel-agent',
      })
    : await EngramClient.connect({
        servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
        tenant: 'acme',
        agent: 'travel-agent',
      });

  // Once: who the agent is, which Engram's context build starts every prompt with.
  await engram.putAgent({ name: 'Rosa', job: 'Books train journeys.', userName: 'Ada' });

  const agent = new Agent({
    name: 'Rosa',
    instructions: 'You book trains. Be brief.',
    model,
    tools: engramTools(engram),
  });
  // A new conversation each time this runs (give sessionKey to carry one on).
  const session = new EngramSession({ engram });
  const options = { session, callModelInputFilter: engramContext(session) };
  console.log(`session: ${session.sessionKey}`);

  const first = 'Hi, I am Ada. I prefer window seats.';
  console.log(`user: ${first}`);
  console.log(`assistant: ${(await run(agent, first, options)).finalOutput}`);

  const second = 'Book me a seat on the 9:40 to Lyon.';
  console.log(`user: ${second}`);
  const streamed = await run(agent, second, { ...options, stream: true });
  process.stdout.write('assistant: ');
  for await (const text of streamed.toTextStream()) process.stdout.write(text);
  await streamed.completed;
  console.log();

  const items = await session.getItems();
  console.log(`the session holds: ${items.map((item) => item.type).join(', ')}`);
} catch (error) {
  // Every failure is an EngramError whose message says what to do ("is it running (`npm start`)?" …).
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await engram?.close();
}
