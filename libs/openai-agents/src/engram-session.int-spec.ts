import { EngramClient, EngramDeadlineExceededError } from '@engram/client';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@engram/testing';
import { Agent, run, setTracingDisabled, type AgentInputItem } from '@openai/agents-core';
import { ScriptedModel, assistantMessage, functionCall, modelResponder } from '@openai/agents-core/testing';
import { engramContext, engramTools } from './engram-memory';
import { EngramSession } from './engram-session';

/**
 * EngramSession under the Agents SDK's own runner, against ingest, retrieval and
 * context-builder as processes; the SDK's ScriptedModel plays the model and records what it
 * was sent.
 */
describe('EngramSession with the OpenAI Agents SDK (real services, Postgres and JetStream)', () => {
  let env: TestEnvironment;
  let engram: EngramClient;

  beforeAll(async () => {
    setTracingDisabled(true);
    env = await startTestEnvironment({
      label: 'openai_agents',
      processes: ['ingest', 'retrieval', 'context-builder'],
    });
    engram = await EngramClient.connect({ servers: env.nats.url, tenant: 'acme', agent: 'concierge' });
  });

  afterAll(async () => {
    await engram?.close();
    await env?.stop();
  });

  const storedCount = (sessionKey: string) =>
    env.count(
      `SELECT count(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.tenant_id = 'acme' AND c.agent = 'concierge' AND c.session_key = $1`,
      [sessionKey],
    );
  const transcript = async (sessionKey: string) =>
    (await engram.browse({ sessionKey, limit: 500 })).messages.map((m) => `${m.role}: ${m.content}`);
  /** The text of each message item the model was sent, as "role: text". */
  const sent = (input: string | AgentInputItem[]) =>
    (typeof input === 'string' ? [{ role: 'user', content: input }] : input).flatMap((item) =>
      'role' in item ? [`${item.role}: ${textOf(item.content)}`] : [],
    );

  it('gives the second turn the first one, read back from Engram by a session that never saw it', async () => {
    const model = new ScriptedModel([
      [assistantMessage('Welcome to Lyon, Ada.')],
      modelResponder(() => [assistantMessage('You live in Lyon.')]),
    ]);
    const agent = new Agent({ name: 'Rosa', instructions: 'Be brief.', model });

    await run(agent, 'I am Ada and I live in Lyon.', {
      session: new EngramSession({ engram, sessionKey: 'two-turns' }),
    });
    await waitFor('the first turn stored', async () => (await storedCount('two-turns')) === 2, 15_000);
    const elsewhere = await EngramClient.connect({
      servers: env.nats.url,
      tenant: 'acme',
      agent: 'concierge',
    });
    try {
      const again = new EngramSession({ engram: elsewhere, sessionKey: 'two-turns' });
      expect((await run(agent, 'Where do I live?', { session: again })).finalOutput).toBe(
        'You live in Lyon.',
      );
    } finally {
      await elsewhere.close();
    }

    expect(sent(model.calls[1]!.request.input)).toEqual([
      'user: I am Ada and I live in Lyon.',
      'assistant: Welcome to Lyon, Ada.',
      'user: Where do I live?',
    ]);
    await waitFor('the second turn stored', async () => (await storedCount('two-turns')) === 4, 15_000);
    expect(await transcript('two-turns')).toEqual([
      'user: I am Ada and I live in Lyon.',
      'assistant: Welcome to Lyon, Ada.',
      'user: Where do I live?',
      'assistant: You live in Lyon.',
    ]);
  });

  it('reads its own writes: a turn run straight after another sees it, stored yet or not', async () => {
    const model = new ScriptedModel([[assistantMessage('Noted.')], [assistantMessage('Tuesday.')]]);
    const agent = new Agent({ name: 'Rosa', model });
    const session = new EngramSession({ engram, sessionKey: 'own-writes' });

    await run(agent, 'My dentist is on Tuesday.', { session });
    await run(agent, 'When is my dentist?', { session });

    expect(sent(model.calls[1]!.request.input)).toEqual([
      'user: My dentist is on Tuesday.',
      'assistant: Noted.',
      'user: When is my dentist?',
    ]);
  });

  it('keeps a tool call and its result whole: the next run replays them to the model as they were', async () => {
    const model = new ScriptedModel([
      [functionCall('remember', { fact: 'Ada prefers window seats.' }, { callId: 'call-seat' })],
      [assistantMessage('I will remember that.')],
      [assistantMessage('A window seat.')],
    ]);
    const agent = new Agent({ name: 'Rosa', model, tools: engramTools(engram) });
    const session = new EngramSession({ engram, sessionKey: 'tool-call' });

    await run(agent, 'Remember that I prefer window seats.', { session });
    await waitFor('the turn stored', async () => (await storedCount('tool-call')) === 4, 15_000);
    const items = await new EngramSession({ engram, sessionKey: 'tool-call' }).getItems();
    await run(agent, 'Which seat do I like?', { session });

    expect(items.map((item) => item.type)).toEqual([
      'message',
      'function_call',
      'function_call_result',
      'message',
    ]);
    expect(items[1]).toMatchObject({
      name: 'remember',
      callId: 'call-seat',
      arguments: '{"fact":"Ada prefers window seats."}',
    });
    expect(items[2]).toMatchObject({ callId: 'call-seat', output: { type: 'text', text: 'Remembered.' } });
    expect(model.calls[2]!.request.input).toEqual([
      ...items,
      { type: 'message', role: 'user', content: 'Which seat do I like?' },
    ]);
  });

  it('lets another agent run find a fact a tool saved: in the prompt Engram builds, and by searching', async () => {
    const saver = new ScriptedModel([
      [functionCall('remember', { fact: 'Ada is allergic to peanuts.' }, { callId: 'call-allergy' })],
      [assistantMessage('Noted, no peanuts.')],
    ]);
    const tools = engramTools(engram);
    await run(new Agent({ name: 'Rosa', model: saver, tools }), 'I am allergic to peanuts.', {
      session: new EngramSession({ engram, sessionKey: 'allergy-said' }),
    });

    const cook = new ScriptedModel([
      [functionCall('search_memory', { query: 'allergic' }, { callId: 'call-search' })],
      [assistantMessage('A peanut-free curry.')],
    ]);
    const session = new EngramSession({ engram, sessionKey: 'allergy-asked' });
    const chef = new Agent({ name: 'Chef', instructions: 'Suggest one dish.', model: cook, tools });
    await run(chef, 'What should I cook?', { session, callModelInputFilter: engramContext(session) });

    const instructions = cook.firstCall!.request.systemInstructions!;
    expect(instructions.startsWith('Suggest one dish.')).toBe(true);
    expect(instructions).toContain('Ada is allergic to peanuts.');
    expect(cook.lastCall!.request.input).toContainEqual(
      expect.objectContaining({
        type: 'function_call_result',
        output: expect.objectContaining({ text: expect.stringContaining('Ada is allergic to peanuts.') }),
      }),
    );
  });

  it('leaves the instructions as they are for an agent Engram knows nothing of yet', async () => {
    const model = new ScriptedModel([[assistantMessage('Hello.')]]);
    const newcomer = await EngramClient.connect({ servers: env.nats.url, tenant: 'acme', agent: 'newcomer' });
    try {
      const session = new EngramSession({ engram: newcomer, sessionKey: 'first-ever' });
      await run(new Agent({ name: 'Rosa', instructions: 'Be brief.', model }), 'Hello?', {
        session,
        callModelInputFilter: engramContext(session),
      });
    } finally {
      await newcomer.close();
    }
    expect(model.firstCall!.request.systemInstructions).toBe('Be brief.');
  });

  it('stores a streamed turn exactly once', async () => {
    const model = new ScriptedModel([[assistantMessage('Lyon sits where the Rhône meets the Saône.')]]);
    const session = new EngramSession({ engram, sessionKey: 'streamed' });

    const streamed = await run(new Agent({ name: 'Rosa', model }), 'Tell me about Lyon.', {
      stream: true,
      session,
    });
    const chunks: string[] = [];
    for await (const chunk of streamed.toTextStream()) chunks.push(chunk);
    await streamed.completed;

    expect(chunks.join('')).toBe('Lyon sits where the Rhône meets the Saône.');
    expect(model.lastCall!.streamed).toBe(true);
    await waitFor(
      'the reply stored',
      async () =>
        (await transcript('streamed')).includes('assistant: Lyon sits where the Rhône meets the Saône.'),
      15_000,
    );
    expect(await transcript('streamed')).toEqual([
      'user: Tell me about Lyon.',
      'assistant: Lyon sits where the Rhône meets the Saône.',
    ]);
    expect(await storedCount('streamed')).toBe(2);
  });

  it('stores an add retried after a lost acknowledgement once', async () => {
    const items: AgentInputItem[] = [
      { type: 'message', role: 'user', content: 'Book the 9:40 train.' },
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Booked.' }],
      },
    ];
    const session = new EngramSession({ engram: losingFirstAcknowledgement(engram), sessionKey: 'retried' });

    await expect(session.addItems(items)).rejects.toThrow(EngramDeadlineExceededError);
    await session.addItems(items);

    await waitFor('the turn stored', async () => (await storedCount('retried')) === 2, 15_000);
    expect(await new EngramSession({ engram, sessionKey: 'retried' }).getItems()).toEqual(items);
    expect(await storedCount('retried')).toBe(2);
  });

  it('pops the newest item and clears the session for good, while Engram keeps every word', async () => {
    const said = (text: string): AgentInputItem => ({ type: 'message', role: 'user', content: text });
    const session = new EngramSession({ engram, sessionKey: 'edits' });
    await session.addItems([said('one'), said('two')]);
    await session.addItems([said('three')]);

    expect(await session.popItem()).toEqual(said('three'));
    expect(await session.getItems()).toEqual([said('one'), said('two')]);
    await waitFor('the pop stored', async () => (await storedCount('edits')) === 4, 15_000);
    const later = new EngramSession({ engram, sessionKey: 'edits' });
    expect(await later.getItems()).toEqual([said('one'), said('two')]);
    expect(await later.getItems(1)).toEqual([said('two')]);

    await later.clearSession();
    await later.addItems([said('four')]);
    expect(await later.getItems()).toEqual([said('four')]);
    await waitFor('the clear stored', async () => (await storedCount('edits')) === 6, 15_000);
    expect(await new EngramSession({ engram, sessionKey: 'edits' }).getItems()).toEqual([said('four')]);
    expect((await transcript('edits')).filter((line) => line.startsWith('user:'))).toEqual([
      'user: one',
      'user: two',
      'user: three',
      'user: four',
    ]);
  });
});

/** A message's text, whether a string or a list of text parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as Array<{ text?: string }>).map((part) => part.text ?? '').join('');
}

/**
 * The client as a lost acknowledgement leaves it: its first turn reaches Engram, yet the caller
 * hears DEADLINE_EXCEEDED ("the request may have taken effect") and tries again.
 */
function losingFirstAcknowledgement(engram: EngramClient): EngramClient {
  let lost = false;
  return new Proxy(engram, {
    get(target, property) {
      if (property === 'publishTurn' && !lost) {
        return async (...args: Parameters<EngramClient['publishTurn']>) => {
          lost = true;
          await target.publishTurn(...args);
          throw new EngramDeadlineExceededError('no acknowledgement in time');
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
