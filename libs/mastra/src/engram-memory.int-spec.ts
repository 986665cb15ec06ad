import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EngramClient } from '@engram/client';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@engram/testing';
import { EngramMemory } from './engram-memory';

type Reply = string | { readonly tool: string; readonly input: Record<string, unknown> };

interface AgentCall {
  readonly input: string;
  readonly thread: string;
  readonly resource: string;
  readonly stream?: boolean;
}

/** What a run of the agent answered, and what its model was sent: "role: text" lines per model call. */
interface AgentRun {
  readonly answers: ReadonlyArray<{ readonly text: string; readonly chunks?: readonly string[] }>;
  readonly prompts: ReadonlyArray<readonly string[]>;
}

/**
 * EngramMemory against ingest, retrieval and context-builder as processes. A Mastra agent's runs
 * go through testing/run-agent.mjs, in Node with the built package (jest's module sandbox cannot
 * run Mastra's agent loop); Mastra's own mock model plays the model. The memory's own calls run
 * here, from the sources.
 */
describe('EngramMemory (real services, Postgres and JetStream)', () => {
  let env: TestEnvironment;
  let engram: EngramClient;

  beforeAll(async () => {
    env = await startTestEnvironment({
      label: 'mastra',
      processes: ['ingest', 'retrieval', 'context-builder'],
    });
    engram = await EngramClient.connect({ servers: env.nats.url, tenant: 'acme' });
  });

  afterAll(async () => {
    await engram?.close();
    await env?.stop();
  });

  /** One agent (with a new EngramMemory) making the calls in order. */
  async function runAgent(
    replies: Reply[],
    calls: AgentCall[],
    instructions = 'Be brief.',
  ): Promise<AgentRun> {
    const script = join(__dirname, '..', 'testing', 'run-agent.mjs');
    const input = JSON.stringify({ servers: env.nats.url, instructions, replies, calls });
    const { stdout } = await promisify(execFile)(process.execPath, [script, input], { timeout: 60_000 });
    return JSON.parse(stdout) as AgentRun;
  }

  const storedCount = (threadId: string) =>
    env.count(
      `SELECT count(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.tenant_id = 'acme' AND c.session_key = $1`,
      [threadId],
    );
  const transcript = async (agent: string, sessionKey: string) =>
    (await engram.browse({ agent, sessionKey, limit: 500 })).messages.map((m) => `${m.role}: ${m.content}`);
  const conversation = (prompt: readonly string[]) => prompt.filter((line) => !line.startsWith('system:'));

  describe('as an agent’s memory', () => {
    it('gives the second turn the first one, read back from Engram by another process', async () => {
      await runAgent(
        ['Welcome to Lyon, Ada.'],
        [{ input: 'I am Ada and I live in Lyon.', thread: 'lyon', resource: 'ada' }],
      );
      await waitFor('the first turn stored', async () => (await storedCount('lyon')) === 2, 15_000);

      const second = await runAgent(
        ['You live in Lyon.'],
        [{ input: 'Where do I live?', thread: 'lyon', resource: 'ada' }],
      );

      expect(second.answers[0]!.text).toBe('You live in Lyon.');
      expect(conversation(second.prompts[0]!)).toEqual([
        'user: I am Ada and I live in Lyon.',
        'assistant: Welcome to Lyon, Ada.',
        'user: Where do I live?',
      ]);
      await waitFor('the second turn stored', async () => (await storedCount('lyon')) === 4, 15_000);
      expect(await transcript('ada', 'lyon')).toEqual([
        'user: I am Ada and I live in Lyon.',
        'assistant: Welcome to Lyon, Ada.',
        'user: Where do I live?',
        'assistant: You live in Lyon.',
      ]);
    });

    it('reads its own writes: a turn run straight after another sees it, stored yet or not', async () => {
      const run = await runAgent(
        ['Noted.', 'Tuesday.'],
        [
          { input: 'My dentist is on Tuesday.', thread: 'dentist', resource: 'ada' },
          { input: 'When is my dentist?', thread: 'dentist', resource: 'ada' },
        ],
      );
      expect(conversation(run.prompts[1]!)).toEqual([
        'user: My dentist is on Tuesday.',
        'assistant: Noted.',
        'user: When is my dentist?',
      ]);
    });

    it('lets another agent run find a fact its remember tool saved: in the prompt Engram builds, and by searching', async () => {
      const saver = await runAgent(
        [{ tool: 'remember', input: { fact: 'Bea is allergic to peanuts.' } }, 'Noted, no peanuts.'],
        [{ input: 'I am allergic to peanuts.', thread: 'allergy-said', resource: 'bea' }],
      );
      expect(saver.answers[0]!.text).toBe('Noted, no peanuts.');

      const cook = await runAgent(
        [{ tool: 'searchMemory', input: { query: 'allergic' } }, 'A peanut-free curry.'],
        [{ input: 'What should I cook?', thread: 'allergy-asked', resource: 'bea' }],
        'Suggest one dish.',
      );
      const system = cook.prompts[0]!.filter((line) => line.startsWith('system:'));
      expect(system[0]).toBe('system: Suggest one dish.');
      expect(system.join('\n')).toContain('Bea is allergic to peanuts.');
      expect(cook.prompts[1]!.filter((line) => line.startsWith('tool:')).join('\n')).toContain(
        'Bea is allergic to peanuts.',
      );
    });

    it('stores a streamed turn exactly once', async () => {
      const run = await runAgent(
        ['Lyon sits where the Rhône meets the Saône.'],
        [{ input: 'Tell me about Lyon.', thread: 'streamed', resource: 'ada', stream: true }],
      );

      expect(run.answers[0]).toEqual({
        text: 'Lyon sits where the Rhône meets the Saône.',
        chunks: [expect.any(String), expect.any(String)],
      });
      await waitFor(
        'the reply stored',
        async () =>
          (await transcript('ada', 'streamed')).includes(
            'assistant: Lyon sits where the Rhône meets the Saône.',
          ),
        15_000,
      );
      expect(await transcript('ada', 'streamed')).toEqual([
        'user: Tell me about Lyon.',
        'assistant: Lyon sits where the Rhône meets the Saône.',
      ]);
      expect(await storedCount('streamed')).toBe(2);
    });
  });

  describe('its own calls', () => {
    const message = (
      id: string,
      thread: string,
      resource: string,
      role: 'user' | 'assistant',
      text: string,
      at: number,
    ) => ({
      id,
      role,
      threadId: thread,
      resourceId: resource,
      createdAt: new Date(Date.UTC(2026, 2, 1, 9, 0, at)),
      content: { format: 2 as const, parts: [{ type: 'text' as const, text }], content: text },
    });

    it("keeps a thread's title, metadata and resource in its conversation, lists it, and erases it on delete", async () => {
      const memory = new EngramMemory({ engram });
      await memory.createThread({
        threadId: 'trip',
        resourceId: 'carl@example.com',
        title: 'Trip',
        metadata: { kind: 'travel' },
      });
      await memory.saveMessages({
        messages: [
          message('m1', 'trip', 'carl@example.com', 'user', 'Book the 9:40.', 1),
          message('m2', 'trip', 'carl@example.com', 'assistant', 'Booked.', 2),
        ],
      });
      await waitFor('the turn stored', async () => (await storedCount('trip')) === 2, 15_000);

      const reader = new EngramMemory({ engram });
      expect(await reader.getThreadById({ threadId: 'trip' })).toMatchObject({
        id: 'trip',
        resourceId: 'carl@example.com',
        title: 'Trip',
        metadata: { kind: 'travel' },
      });
      const listed = await reader.listThreads({
        filter: { resourceId: 'carl@example.com', metadata: { kind: 'travel' } },
      });
      expect(listed.threads.map((t) => t.id)).toEqual(['trip']);
      const recalled = await reader.recall({ threadId: 'trip' });
      expect(recalled.messages.map((m) => [m.id, m.content.content])).toEqual([
        ['m1', 'Book the 9:40.'],
        ['m2', 'Booked.'],
      ]);

      await reader.deleteThread('trip');
      expect(await storedCount('trip')).toBe(0);
      expect(await new EngramMemory({ engram }).getThreadById({ threadId: 'trip' })).toBeNull();
    });

    it('stores the same messages saved twice once, and a message saved again with new words as its newest version', async () => {
      const memory = new EngramMemory({ engram });
      await memory.createThread({ threadId: 'versions', resourceId: 'ada' });
      const draft = message('v1', 'versions', 'ada', 'assistant', 'The train leaves at 9.', 1);
      await memory.saveMessages({ messages: [draft] });
      await memory.saveMessages({ messages: [draft] });
      await memory.saveMessages({
        messages: [
          {
            ...draft,
            content: {
              ...draft.content,
              content: 'The train leaves at 9:40.',
              parts: [{ type: 'text', text: 'The train leaves at 9:40.' }],
            },
          },
        ],
      });
      await waitFor('both versions stored', async () => (await storedCount('versions')) === 2, 15_000);

      const recalled = await new EngramMemory({ engram }).recall({ threadId: 'versions' });
      expect(recalled.messages.map((m) => [m.id, m.content.content])).toEqual([
        ['v1', 'The train leaves at 9:40.'],
      ]);
    });

    it('clones a thread into a new conversation with copies of its messages', async () => {
      const memory = new EngramMemory({ engram });
      await memory.createThread({ threadId: 'original', resourceId: 'ada', title: 'Plans' });
      await memory.saveMessages({
        messages: [
          message('o1', 'original', 'ada', 'user', 'Plan a weekend in Annecy.', 1),
          message('o2', 'original', 'ada', 'assistant', 'Lake first, then the old town.', 2),
        ],
      });

      const { thread, clonedMessages, messageIdMap } = await memory.cloneThread({
        sourceThreadId: 'original',
        newThreadId: 'copy',
      });
      await waitFor('the copy stored', async () => (await storedCount('copy')) === 2, 15_000);

      expect(thread).toMatchObject({
        id: 'copy',
        resourceId: 'ada',
        title: 'Plans',
        metadata: { clone: { sourceThreadId: 'original' } },
      });
      expect(Object.keys(messageIdMap!)).toEqual(['o1', 'o2']);
      expect(clonedMessages.map((m) => m.id)).toEqual(Object.values(messageIdMap!));
      const copied = await new EngramMemory({ engram }).recall({ threadId: 'copy' });
      expect(copied.messages.map((m) => [m.id, m.threadId, m.content.content])).toEqual(
        clonedMessages.map((m) => [m.id, 'copy', m.content.content]),
      );
      expect(copied.messages.map((m) => m.content.content)).toEqual([
        'Plan a weekend in Annecy.',
        'Lake first, then the old town.',
      ]);
    });

    it('recalls, for a search string, what the resource said in another thread', async () => {
      const memory = new EngramMemory({ engram });
      await memory.createThread({ threadId: 'bike', resourceId: 'dora' });
      await memory.createThread({ threadId: 'hello', resourceId: 'dora' });
      await memory.saveMessages({
        messages: [message('b1', 'bike', 'dora', 'user', 'My bike is the blue one by the door.', 1)],
      });
      await memory.saveMessages({ messages: [message('h1', 'hello', 'dora', 'user', 'Hello!', 2)] });
      await waitFor(
        'both stored',
        async () => (await storedCount('bike')) + (await storedCount('hello')) === 2,
        15_000,
      );

      const recalled = await new EngramMemory({ engram }).recall({
        threadId: 'hello',
        resourceId: 'dora',
        vectorSearchString: 'blue bike',
      });
      expect(recalled.messages.map((m) => m.content.content)).toEqual([
        'My bike is the blue one by the door.',
        'Hello!',
      ]);
    });

    it('keeps working memory as facts of the resource', async () => {
      const memory = new EngramMemory({ engram });
      await memory.updateWorkingMemory({
        threadId: 'notes',
        resourceId: 'eve',
        workingMemory: 'Eve works night shifts.',
      });
      expect(await memory.getWorkingMemory({ threadId: 'notes', resourceId: 'eve' })).toBe(
        '- Eve works night shifts.',
      );
    });
  });
});
