import { jetstreamManager } from '@nats-io/jetstream';
import { EngramClient } from '@engram/client';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@engram/testing';
import { engramMemory } from './engram-memory';
import { engramTools } from './engram-tools';
import {
  loadAiSdk,
  promptLines,
  streamAnswer,
  streamedParts,
  textAnswer,
  toolCallAnswer,
} from './testing/ai-sdk';

/** The AI SDK with Engram's memory, against ingest, retrieval and context-builder as processes; the model is the AI SDK's mock. */
describe('@engram/ai-sdk with Engram running (real services, Postgres and JetStream)', () => {
  let env: TestEnvironment;
  let engram: EngramClient;
  let ai: Awaited<ReturnType<typeof loadAiSdk>>;

  beforeAll(async () => {
    [env, ai] = await Promise.all([
      startTestEnvironment({ label: 'ai_sdk', processes: ['ingest', 'retrieval', 'context-builder'] }),
      loadAiSdk(),
    ]);
    engram = await EngramClient.connect({ servers: env.nats.url, tenant: 'acme', agent: 'concierge' });
    await engram.putAgent({ name: 'Rosa', personality: 'Warm and brief.', userName: 'Ada' });
  });

  afterAll(async () => {
    await engram?.close();
    await env?.stop();
  });

  const stored = (sessionKey: string) =>
    env.count(
      `SELECT count(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.tenant_id = 'acme' AND c.agent = 'concierge' AND c.session_key = $1`,
      [sessionKey],
    );

  it("puts what the first turn said into the second turn's prompt, through Engram", async () => {
    const memory = engramMemory(engram, { sessionKey: 'trip-1' });
    const model = new ai.MockLanguageModelV4({
      doGenerate: [textAnswer('Noted: metric units, Ada.'), textAnswer('Metric.')],
    });
    const chat = ai.wrapLanguageModel({ model, middleware: memory });

    await ai.generateText({ model: chat, prompt: 'Hi, I am Ada. I prefer metric units.' });
    await memory.flush();
    await waitFor('the first turn stored', async () => (await stored('trip-1')) === 2, 15_000);
    await ai.generateText({ model: chat, prompt: 'Which units do I prefer?' });
    await memory.flush();

    const second = promptLines(model.doGenerateCalls[1]!.prompt);
    expect(second[0]).toMatch(/^system: .*Rosa/);
    expect(second.slice(-3)).toEqual([
      'user: Hi, I am Ada. I prefer metric units.',
      'assistant: Noted: metric units, Ada.',
      'user: Which units do I prefer?',
    ]);
    await waitFor('both turns stored', async () => (await stored('trip-1')) === 4, 15_000);
    const transcript = await engram.browse({ sessionKey: 'trip-1' });
    expect(transcript.messages.map((m) => `${m.role}: ${m.content}`)).toEqual([
      'user: Hi, I am Ada. I prefer metric units.',
      'assistant: Noted: metric units, Ada.',
      'user: Which units do I prefer?',
      'assistant: Metric.',
    ]);
  });

  it('says each earlier message once when the caller sends its own history too', async () => {
    await waitFor('the first conversation stored', async () => (await stored('trip-1')) === 4, 15_000);
    const memory = engramMemory(engram, { sessionKey: 'trip-1' });
    const model = new ai.MockLanguageModelV4({ doGenerate: textAnswer('About 80 km.') });

    await ai.generateText({
      model: ai.wrapLanguageModel({ model, middleware: memory }),
      messages: [
        { role: 'user', content: 'Hi, I am Ada. I prefer metric units.' },
        { role: 'assistant', content: 'Noted: metric units, Ada.' },
        { role: 'user', content: 'Which units do I prefer?' },
        { role: 'assistant', content: 'Metric.' },
        { role: 'user', content: 'How far is Geneva from Lyon?' },
      ],
    });
    await memory.flush();

    const prompt = promptLines(model.doGenerateCalls[0]!.prompt);
    expect(prompt.filter((line) => line === 'user: Hi, I am Ada. I prefer metric units.')).toHaveLength(1);
    expect(prompt.filter((line) => line === 'assistant: Metric.')).toHaveLength(1);
    expect(prompt.at(-1)).toBe('user: How far is Geneva from Lyon?');
  });

  it('lets the model save a fact with memory_save that another run finds with memory_search', async () => {
    const memory = engramMemory(engram, { sessionKey: 'trip-2' });
    const saving = new ai.MockLanguageModelV4({
      doGenerate: [
        toolCallAnswer('memory_save', { content: 'Ada is allergic to peanuts.' }),
        textAnswer('I will remember that.'),
      ],
    });
    const saved = await ai.generateText({
      model: ai.wrapLanguageModel({ model: saving, middleware: memory }),
      tools: engramTools(engram, { sessionKey: 'trip-2' }),
      stopWhen: ai.isStepCount(2),
      prompt: 'Please remember that I am allergic to peanuts.',
    });
    expect(saved.text).toBe('I will remember that.');
    expect(saved.steps[0]!.toolResults.map((r) => r.output)).toEqual([
      expect.stringMatching(/^Remembered as fact:\d+\.$/),
    ]);

    const searching = new ai.MockLanguageModelV4({
      doGenerate: [
        toolCallAnswer('memory_search', { query: 'peanuts allergy', kinds: ['fact'] }),
        textAnswer('You are allergic to peanuts.'),
      ],
    });
    const found = await ai.generateText({
      model: searching,
      tools: engramTools(engram, { include: ['memory_search'] }),
      stopWhen: ai.isStepCount(2),
      prompt: 'What am I allergic to?',
    });
    expect(found.steps[0]!.toolResults.map((r) => r.output)).toEqual([
      expect.stringMatching(
        /^1 item for "peanuts allergy".*\n1\. \[fact:\d+\] [^\n]* — Ada is allergic to peanuts\.(\n|$)/,
      ),
    ]);

    // The first run's turn: the user's message, the tool call, its result, the answer.
    await memory.flush();
    await waitFor('the tool turn stored', async () => (await stored('trip-2')) === 4, 15_000);
    const turn = (await engram.browse({ sessionKey: 'trip-2' })).messages;
    expect(turn.map((m) => [m.role, m.toolName])).toEqual([
      ['user', ''],
      ['assistant', 'memory_save'],
      ['tool', 'memory_save'],
      ['assistant', ''],
    ]);
  });

  it('browses the current conversation when the model names none', async () => {
    await waitFor('the tool turn stored', async () => (await stored('trip-2')) === 4, 15_000);
    const model = new ai.MockLanguageModelV4({
      doGenerate: [toolCallAnswer('memory_browse', {}), textAnswer('You asked me to remember an allergy.')],
    });
    const browsed = await ai.generateText({
      model,
      tools: engramTools(engram, { sessionKey: 'trip-2', include: ['memory_browse'] }),
      stopWhen: ai.isStepCount(2),
      prompt: 'What did I tell you in this conversation?',
    });
    expect(browsed.steps[0]!.toolResults.map((r) => r.output)).toEqual([
      expect.stringMatching(
        /^4 messages, oldest first .*\n\[message:\d+\] .* user — Please remember that I am allergic to peanuts\.\n/,
      ),
    ]);
  });

  it('stores a streamed answer exactly once, however often the same call is retried', async () => {
    const memory = engramMemory(engram, { sessionKey: 'trip-3' });
    const model = new ai.MockLanguageModelV4({
      doStream: async () => streamAnswer(streamedParts(['Lyon ', 'is ', 'lovely.'])),
    });
    const ask = () =>
      ai.streamText({
        model: ai.wrapLanguageModel({ model, middleware: memory }),
        messages: [
          { role: 'user', content: 'I am going to France.' },
          { role: 'assistant', content: 'Lovely! Where?' },
          { role: 'user', content: 'Lyon. Is it nice?' },
        ],
      });
    const turnsPublished = async () =>
      (await (await jetstreamManager(env.nc)).streams.info('TURNS')).state.messages;

    expect(await ask().text).toBe('Lyon is lovely.');
    await memory.flush();
    await waitFor('the streamed turn stored', async () => (await stored('trip-3')) === 2, 15_000);
    const published = await turnsPublished();
    expect(await ask().text).toBe('Lyon is lovely.');
    await memory.flush();

    expect(await turnsPublished()).toBe(published);
    expect(await stored('trip-3')).toBe(2);
  });
});
