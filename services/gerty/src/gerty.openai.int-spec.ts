import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toJson } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { Rpcs } from '@engram/contracts';
import { LOCAL_EMBEDDING_MODEL_ID } from '@engram/local-model';
import { RpcClient, RpcError } from '@engram/messaging';
import {
  CLUSTER_SPLIT_JSON_SCHEMA,
  EXTRACTED_FACTS_JSON_SCHEMA,
  MEMORY_ANSWER_JSON_SCHEMA,
  REPAIRED_SCENE_JSON_SCHEMA,
  SCENE_CONSOLIDATION_JSON_SCHEMA,
  THINK_NOTES_JSON_SCHEMA,
} from '@engram/prompts';
import {
  startFakeOpenAiServer,
  startServiceUnderTest,
  waitFor,
  type FakeOpenAiServer,
  type ServiceUnderTest,
} from '@engram/testing';
import { loadGertyConfig } from './gerty.config';
import { GertyModule } from './gerty.module';
import { OPENAI_RETRY_SCHEDULE } from './models/model-router';

const at = (minute: number) => new Date(Date.parse('2026-02-22T10:00:00Z') + minute * 60_000).toISOString();

/** Retries after 20, 40 and 60 ms instead of 5, 10 and 15 s. */
const FAST_RETRIES = { delaysMs: [20, 40, 60], retryAfterCapMs: 100 };

/**
 * Gerty with one OpenAI-compatible endpoint (GERTY_OPENAI_*), played by a fake server that
 * records what it is sent. Each model takes one request at a time and queues none, so that
 * two requests at once collide.
 */
describe('gerty with an OpenAI-compatible endpoint (real NATS and Postgres, fake OpenAI server)', () => {
  let server: FakeOpenAiServer;
  let gerty: ServiceUnderTest;
  let rpc: RpcClient;

  beforeAll(async () => {
    server = await startFakeOpenAiServer();
    server.dimensions = 8;
    gerty = await startServiceUnderTest({
      label: 'gerty_openai',
      loadConfig: loadGertyConfig,
      module: (config) => GertyModule.register(config),
      config: {
        GERTY_OPENAI_BASE_URL: server.url,
        GERTY_OPENAI_CHAT_MODEL: 'fake-chat',
        GERTY_OPENAI_EMBEDDING_MODEL: 'fake-embed',
        EMBEDDING_DIMENSIONS: '8',
        GERTY_MODEL_CONCURRENCY: '1',
        GERTY_MODEL_MAX_QUEUED: '0',
      },
      overrides: [{ provide: OPENAI_RETRY_SCHEDULE, useValue: FAST_RETRIES }],
    });
    ({ rpc } = gerty);
  });

  beforeEach(() => {
    server.requests.length = 0;
  });

  afterAll(async () => {
    await gerty?.stop();
    await server?.close();
  });

  const complete = (request: Parameters<RpcClient['call']>[1], options: { timeoutMs?: number } = {}) =>
    rpc.call(Rpcs.gertyComplete, request, options);

  async function rpcFailure(promise: Promise<unknown>): Promise<RpcError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RpcError);
    return error as RpcError;
  }

  it('lists the remote models beside "local" and makes them the defaults', async () => {
    const models = await rpc.call(Rpcs.gertyModelsList, {});
    expect(models.defaultEmbeddingModel).toBe('openai-embedding');
    expect(models.defaultCompletionModel).toBe('openai-chat');
    const byName = Object.fromEntries(models.models.map((m) => [m.name, m]));
    expect(Object.keys(byName).sort()).toEqual(['local', 'openai-chat', 'openai-embedding']);
    expect(byName['openai-chat']).toMatchObject({
      provider: 'openai',
      modelId: 'openai:fake-chat',
      embeds: false,
      completes: true,
    });
    expect(byName['openai-embedding']).toMatchObject({
      provider: 'openai',
      modelId: 'openai:fake-embed',
      embeds: true,
      dimensions: 8,
    });
    expect(byName['local']).toMatchObject({ modelId: LOCAL_EMBEDDING_MODEL_ID, dimensions: 100 });
  });

  describe('routing', () => {
    it('embeds with the endpoint’s model, in input order, named with the remote model', async () => {
      const response = await rpc.call(Rpcs.gertyEmbed, {
        texts: ['alpha', 'be', 'gamma ray'],
        tenantId: 'acme',
      });
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.path).toBe('/v1/embeddings');
      expect(server.requests[0]!.body).toEqual({
        model: 'fake-embed',
        input: ['alpha', 'be', 'gamma ray'],
        encoding_format: 'float',
      });
      expect(server.requests[0]!.headers.authorization).toBeUndefined(); // no key configured, none sent
      expect(response.model).toBe('openai:fake-embed');
      expect(response.dimensions).toBe(8);
      // The fake's vectors: [index, length/2, length/3, …]; served in reverse, answered in order.
      expect(response.vectors.map((v) => v.values[0])).toEqual([0, 1, 2]);
      expect(response.vectors.map((v) => v.values[1])).toEqual([2.5, 1, 4.5]);
    });

    it('still embeds with the built-in model when it is named, without calling the endpoint', async () => {
      const response = await rpc.call(Rpcs.gertyEmbed, { texts: ['alpha'], model: 'local' });
      expect(response).toMatchObject({ model: LOCAL_EMBEDDING_MODEL_ID, dimensions: 100 });
      expect(server.requests).toHaveLength(0);
    });

    it('refuses an endpoint whose vectors are not EMBEDDING_DIMENSIONS wide', async () => {
      server.dimensions = 12;
      try {
        const error = await rpcFailure(rpc.call(Rpcs.gertyEmbed, { texts: ['alpha'] }));
        expect(error.code).toBe('FAILED_PRECONDITION');
        expect(error.message).toBe('model openai-embedding answered 12-d vectors; it is configured for 8');
      } finally {
        server.dimensions = 8;
      }
    });

    it('extract_facts: asks with the facts JSON schema and the attributed lines with their ids; answers the checked facts', async () => {
      const facts = [
        {
          content: 'Ada is going to Paris on 2026-02-23.',
          category: 'event',
          importance: 6,
          sourceMessageIds: ['m-1'],
        },
      ];
      server.script({ kind: 'content', content: JSON.stringify({ facts }) });
      const response = await complete({
        task: 'extract_facts',
        taskInput: {
          messages: [
            { id: 'm-1', role: 'user', author: 'ada', at: at(0), text: "I'm going to Paris\ntomorrow." },
            { id: 'm-2', role: 'assistant', author: 'opus', at: at(1), text: 'Have a great trip!' },
          ],
          userName: 'Ada',
        },
        tenantId: 'acme',
      });

      expect(server.requests).toHaveLength(1);
      const { path, body } = server.requests[0]!;
      expect(path).toBe('/v1/chat/completions');
      expect(body.model).toBe('fake-chat');
      expect(body.response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'extracted_facts', schema: EXTRACTED_FACTS_JSON_SCHEMA, strict: true },
      });
      const messages = body.messages as Array<{ role: string; content: string }>;
      expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
      expect(messages[0]!.content).toContain('"tomorrow" in a message of 2026-02-22 is 2026-02-23');
      expect(messages[0]!.content).toContain('The user is called Ada.');
      expect(messages[1]!.content).toBe(
        "[#01 2026-02-22T10:00Z ada/user] (id m-1) I'm going to Paris tomorrow.\n" +
          '[#02 2026-02-22T10:01Z opus/assistant] (id m-2) Have a great trip!',
      );

      expect(toJson(ValueSchema, response.json!)).toEqual({ facts });
      expect(response.model).toBe('openai:fake-chat');
      expect(response).toMatchObject({ promptTokens: 10, completionTokens: 5 });
    });

    it('answer_from_memory: asks with the answer JSON schema and the hits with their ids; answers citing only the hits it was given', async () => {
      // The model cites a hit it was given, one it was not (in the text and the list), and forgets to list one.
      server.script({
        kind: 'content',
        content: JSON.stringify({
          answer:
            'The cats are Bailey and Oliver [message:12, message:99]. Ada lives in Oslo [fact:404]. She prefers tea [fact:3].',
          citedIds: ['message:12', 'fact:404'],
        }),
      });
      const response = await complete({
        task: 'answer_from_memory',
        taskInput: {
          question: 'What are the cats called?',
          hits: [
            {
              id: 'message:12',
              kind: 'message',
              content: 'Two cats, Bailey and Oliver.',
              createdAt: at(0),
              author: 'Ada',
            },
            { id: 'fact:3', kind: 'fact', content: 'Ada prefers tea over coffee', createdAt: at(1) },
          ],
        },
        tenantId: 'acme',
      });

      const { body } = server.requests[0]!;
      expect(body.response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'memory_answer', schema: MEMORY_ANSWER_JSON_SCHEMA, strict: true },
      });
      const messages = body.messages as Array<{ role: string; content: string }>;
      expect(messages[0]!.content).toContain('using only the memory items');
      expect(messages[1]!.content).toBe(
        'Question: What are the cats called?\n\nMemory items:\n' +
          '[message:12] 2026-02-22T10:00Z message by Ada: Two cats, Bailey and Oliver.\n' +
          '[fact:3] 2026-02-22T10:01Z fact: Ada prefers tea over coffee',
      );

      const answer =
        'The cats are Bailey and Oliver [message:12]. Ada lives in Oslo. She prefers tea [fact:3].';
      expect(toJson(ValueSchema, response.json!)).toEqual({ answer, citedIds: ['message:12', 'fact:3'] });
      expect(response.text).toBe(answer);
      expect(response.model).toBe('openai:fake-chat');
    });

    it('summarize: sends the preamble and the attributed lines, and answers the model’s summary', async () => {
      server.script({
        kind: 'content',
        content: '  [#01 2026-02-22T10:00Z ada/user] Ada asked for PR #482 to be merged.\n',
      });
      const response = await complete({
        task: 'summarize',
        taskInput: {
          preamble: { conversationId: 'c-7', agent: 'opus', from: at(0), to: at(3), messageCount: 2 },
          lines: [
            {
              id: 'm-1',
              role: 'user',
              author: 'ada',
              at: at(0),
              text: 'Please merge PR #482 (commit 9f3c2ab1).',
            },
            { id: 'm-2', role: 'assistant', author: 'opus', at: at(3), text: 'Merged.' },
          ],
          maxChars: 300,
        },
        maxTokens: 256,
      });
      const { body } = server.requests[0]!;
      expect(body.model).toBe('fake-chat');
      expect(body.max_tokens).toBe(256);
      expect(body.response_format).toBeUndefined();
      const messages = body.messages as Array<{ role: string; content: string }>;
      expect(messages[0]!.content).toContain('Keep identifiers verbatim');
      expect(messages[0]!.content).toContain('At most 300 characters.');
      expect(messages[1]!.content).toBe(
        'Conversation c-7 · agent opus · 2026-02-22T10:00Z–2026-02-22T10:03Z · 2 messages\n\n' +
          '[#01 2026-02-22T10:00Z ada/user] Please merge PR #482 (commit 9f3c2ab1).\n' +
          '[#02 2026-02-22T10:03Z opus/assistant] Merged.',
      );
      expect(response.text).toBe('[#01 2026-02-22T10:00Z ada/user] Ada asked for PR #482 to be merged.');
      expect(response.model).toBe('openai:fake-chat');
    });

    it('describe_tool_call: sends the tool and its arguments, answers the sentence', async () => {
      server.script({ kind: 'content', content: 'Searched the web for "pgvector hnsw".' });
      const response = await complete({
        task: 'describe_tool_call',
        taskInput: { toolName: 'search_web', toolArgs: { query: 'pgvector hnsw' } },
      });
      const messages = server.requests[0]!.body.messages as Array<{ role: string; content: string }>;
      expect(messages[0]!.content).toContain('one sentence');
      expect(messages[1]!.content).toBe('Tool: search_web\nArguments: {"query":"pgvector hnsw"}');
      expect(response.text).toBe('Searched the web for "pgvector hnsw".');
    });

    it('free-form chat: sends the messages as they are', async () => {
      const chat = [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Say hello.' },
      ];
      const response = await complete({ messages: chat, temperature: 0 });
      expect(server.requests[0]!.body).toEqual({
        model: 'fake-chat',
        messages: chat,
        stream: false,
        temperature: 0,
      });
      expect(response).toMatchObject({ text: 'Hello from the fake server.', model: 'openai:fake-chat' });
    });

    it('answers INTERNAL with the problems when the model’s facts stay invalid after one repair', async () => {
      server.script(
        { kind: 'content', content: 'Sure! Here are the facts.' },
        { kind: 'content', content: '{"facts": [{"content": "x"}]}' },
      );
      const error = await rpcFailure(
        complete({
          task: 'extract_facts',
          taskInput: { messages: [{ id: 'm', role: 'user', at: at(0), text: 'hi' }] },
        }),
      );
      expect(error.code).toBe('INTERNAL');
      expect(error.message).toMatch(/^model openai-chat did not produce valid output: /);
      expect(error.details.model).toBe('openai-chat');
      expect((error.details.problems as string[]).length).toBeGreaterThan(0);
      expect(server.requests).toHaveLength(2);
    });
    it('answers INTERNAL naming the problem when the model’s JSON fits the schema but not the task’s bounds', async () => {
      const facts = [
        { content: 'Ada likes tea.', category: 'preference', importance: 42, sourceMessageIds: [] },
      ];
      server.script({ kind: 'content', content: JSON.stringify({ facts }) });
      const error = await rpcFailure(
        complete({
          task: 'extract_facts',
          taskInput: { messages: [{ id: 'm', role: 'user', at: at(0), text: 'I like tea.' }] },
        }),
      );
      expect(error.code).toBe('INTERNAL');
      expect(error.message).toMatch(
        /^the model's extract_facts answer is not in the expected shape: facts\.0\.importance: /,
      );
      expect(server.requests).toHaveLength(1); // valid against the JSON schema: no repair asked
    });
  });

  describe('scene memory’s tasks', () => {
    const being = { name: 'Mira', personality: 'Curious and warm.', voice: 'Short sentences; dry humour.' };
    const node = (id: string, scene: string, pinned = false) => ({
      id,
      scene,
      importance: 0.5,
      status: 'active',
      fresh: false,
      pinned,
    });
    const consolidation = {
      task: 'consolidate_scenes',
      taskInput: {
        being,
        cluster: { name: 'Baking' },
        nodes: [
          node('41', '2026-11-02 — the kitchen — baked bread with Mia — "smells like home" — (warm)', true),
          node('42', '2026-11-02 — the kitchen — Mia and I baked bread'),
          node('43', '2026-10-01 — the hallway — a delivery came'),
        ],
      },
    };
    const split = {
      task: 'split_cluster',
      taskInput: {
        cluster: { name: 'Everyday' },
        nodes: [
          { id: '1', scene: '2026-11-02 — the kitchen — baked bread' },
          { id: '2', scene: '2026-11-04 — the kitchen — burnt the rolls' },
          { id: '3', scene: '2026-11-03 — the office — a deadline moved' },
          { id: '4', scene: '2026-11-05 — the park — rain' },
        ],
      },
    };
    const day = {
      being,
      day: '2026-11-02',
      scenes: ['2026-11-02 — the kitchen — baked bread with Mia — (warm)'],
    };
    const sent = () => server.requests[0]!.body;
    const sentMessages = () => sent().messages as Array<{ role: string; content: string }>;

    it('consolidate_scenes: asks with its JSON schema, the being and each scene’s id; answers the plan', async () => {
      const plan = { merges: [{ survivorId: '41', absorbedIds: ['42'] }], makeDead: ['43'] };
      server.script({ kind: 'content', content: JSON.stringify(plan) });
      const response = await complete({ ...consolidation, tenantId: 'acme' });

      expect(sent().response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'scene_consolidation', schema: SCENE_CONSOLIDATION_JSON_SCHEMA, strict: true },
      });
      const [system, user] = sentMessages();
      expect(system!.content).toContain('scene memory of Mira');
      expect(system!.content).toContain('Curious and warm.');
      expect(user!.content).toContain(
        '[41] (0.50, active, pinned) 2026-11-02 — the kitchen — baked bread with Mia',
      );
      expect(user!.content).toContain('[43] (0.50, active) 2026-10-01 — the hallway — a delivery came');
      expect(toJson(ValueSchema, response.json!)).toEqual(plan);
      expect(response.model).toBe('openai:fake-chat');
    });

    it('split_cluster: asks with its JSON schema and each scene’s id; answers the groups', async () => {
      const groups = [{ name: 'Kitchen', nodeIds: ['1', '2'] }];
      server.script({ kind: 'content', content: JSON.stringify({ groups }) });
      const response = await complete(split);

      expect(sent().response_format).toMatchObject({
        json_schema: { name: 'cluster_split', schema: CLUSTER_SPLIT_JSON_SCHEMA },
      });
      expect(sentMessages()[1]!.content).toBe(
        'Cluster: Everyday\n\nScenes:\n' +
          '[1] 2026-11-02 — the kitchen — baked bread\n' +
          '[2] 2026-11-04 — the kitchen — burnt the rolls\n' +
          '[3] 2026-11-03 — the office — a deadline moved\n' +
          '[4] 2026-11-05 — the park — rain',
      );
      expect(toJson(ValueSchema, response.json!)).toEqual({ groups });
    });

    it('write_diary: asks in the being’s voice without a JSON schema; answers the entry, trimmed', async () => {
      server.script({
        kind: 'content',
        content: '\n  We baked bread.\nMia laughed.\nThe kitchen smelled like home.  \n',
      });
      const response = await complete({
        task: 'write_diary',
        taskInput: { ...day, previous: 'A quiet day.' },
      });

      expect(sent().response_format).toBeUndefined();
      const [system, user] = sentMessages();
      expect(system!.content).toMatch(/^You are Mira, writing your diary at the end of 2026-11-02\./);
      expect(system!.content).toContain('Your voice, to write in: Short sentences; dry humour.');
      expect(user!.content).toContain("Yesterday's entry:\nA quiet day.");
      expect(user!.content).toContain('- 2026-11-02 — the kitchen — baked bread with Mia — (warm)');
      expect(response.text).toBe('We baked bread.\nMia laughed.\nThe kitchen smelled like home.');
      expect(response.json).toBeUndefined();
    });

    it('write_think_notes: asks with its JSON schema in the being’s voice; answers the notes', async () => {
      const notes = ['Ask Mia how the bread turned out.', 'Keep it short.', 'Mention the rain.'];
      server.script({ kind: 'content', content: JSON.stringify({ notes }) });
      const response = await complete({
        task: 'write_think_notes',
        taskInput: { ...day, diary: 'We baked.' },
      });

      expect(sent().response_format).toMatchObject({
        json_schema: { name: 'think_notes', schema: THINK_NOTES_JSON_SCHEMA },
      });
      const [system, user] = sentMessages();
      expect(system!.content).toContain('Your voice, to write in: Short sentences; dry humour.');
      expect(user!.content).toContain('Your diary entry:\nWe baked.');
      expect(toJson(ValueSchema, response.json!)).toEqual({ notes });
    });

    it('repair_scene: asks with its JSON schema, the problems and the note; answers the scene', async () => {
      const scene = {
        action: 'baked bread with Mia',
        actors: ['me', 'Mia'],
        when: ['2026-11-02'],
        setting: 'the kitchen',
        dialogue: [],
        sensory: [],
        feeling: '',
      };
      server.script({ kind: 'content', content: JSON.stringify(scene) });
      const response = await complete({
        task: 'repair_scene',
        taskInput: { text: 'baked bread with Mia in the kitchen, 2026-11-02', problems: ['not JSON: x'] },
      });

      expect(sent().response_format).toMatchObject({
        json_schema: { name: 'repaired_scene', schema: REPAIRED_SCENE_JSON_SCHEMA },
      });
      expect(sentMessages()[1]!.content).toBe(
        'Why it is not a scene:\n- not JSON: x\n\nThe note:\nbaked bread with Mia in the kitchen, 2026-11-02',
      );
      expect(toJson(ValueSchema, response.json!)).toEqual(scene);
    });

    it('answers INTERNAL when the model answers a JSON task without JSON, even after the repair', async () => {
      for (const request of [consolidation, split, { task: 'write_think_notes', taskInput: day }]) {
        server.requests.length = 0;
        server.script(
          { kind: 'content', content: 'Merge 41 and 42, I would say.' },
          { kind: 'content', content: 'Sorry, no JSON today.' },
        );
        const error = await rpcFailure(complete(request));
        expect(error.code).toBe('INTERNAL');
        expect(error.message).toMatch(/^model openai-chat did not produce valid output: /);
        expect(server.requests).toHaveLength(2);
      }
    });

    it('answers INTERNAL naming the field when the JSON fits the schema but not the task’s answer', async () => {
      const cases = [
        {
          request: consolidation,
          answer: { merges: [{ survivorId: '41', absorbedIds: [] }], makeDead: [] },
          problem: 'consolidate_scenes answer is not in the expected shape: merges.0.absorbedIds: ',
        },
        {
          request: split,
          answer: { groups: [{ name: 'K'.repeat(61), nodeIds: ['1', '2'] }] },
          problem: 'split_cluster answer is not in the expected shape: groups.0.name: ',
        },
        {
          request: { task: 'write_think_notes', taskInput: day },
          answer: { notes: ['Only one note.'] },
          problem: 'write_think_notes answer is not in the expected shape: notes: ',
        },
        {
          request: { task: 'repair_scene', taskInput: { text: 'baked bread', problems: [] } },
          answer: {
            action: 'baked bread',
            actors: [],
            when: [],
            setting: '',
            dialogue: [],
            sensory: [],
            feeling: '',
          },
          problem: 'repair_scene answer is not in the expected shape: actors: ',
        },
      ];
      for (const { request, answer, problem } of cases) {
        server.requests.length = 0;
        server.script({ kind: 'content', content: JSON.stringify(answer) });
        const error = await rpcFailure(complete(request));
        expect(error.code).toBe('INTERNAL');
        expect(error.message).toContain(`the model's ${problem}`);
        expect(server.requests).toHaveLength(1);
      }
    });
  });

  describe('failures', () => {
    it('answers UNAVAILABLE once the endpoint’s 5xx outlast the retries', async () => {
      server.script(
        ...Array.from({ length: 4 }, () => ({
          kind: 'status' as const,
          status: 503,
          message: 'model is loading',
        })),
      );
      const error = await rpcFailure(
        complete({ task: 'describe_tool_call', taskInput: { toolName: 'get_time' } }),
      );
      expect(error.code).toBe('UNAVAILABLE');
      expect(error.message).toMatch(
        /^model openai-chat is unavailable: .*answered 503: model is loading; gave up after 4 attempts$/,
      );
      expect(error.details).toMatchObject({ model: 'openai-chat', status: 503, retryable: true });
      expect(server.requests).toHaveLength(4); // the first attempt and three retries
    });

    it('answers FAILED_PRECONDITION when the endpoint refuses the request (4xx), without retrying', async () => {
      server.script({
        kind: 'status',
        status: 404,
        message: 'model "fake-chat" not found, try pulling it first',
      });
      const error = await rpcFailure(complete({ messages: [{ role: 'user', content: 'hi' }] }));
      expect(error.code).toBe('FAILED_PRECONDITION');
      expect(error.message).toContain('try pulling it first');
      expect(error.details).toMatchObject({ model: 'openai-chat', status: 404 });
      expect(server.requests).toHaveLength(1);
    });

    it('stops waiting on a stalled endpoint when the caller’s deadline passes, and hangs up on it', async () => {
      server.script({ kind: 'stall' });
      const started = performance.now();
      const error = await rpcFailure(
        complete({ messages: [{ role: 'user', content: 'hi' }] }, { timeoutMs: 800 }),
      );
      expect(error.code).toBe('DEADLINE_EXCEEDED');
      expect(server.requests).toHaveLength(1);
      // Gerty aborts its request to the endpoint at the deadline (Engram-Deadline), not later.
      await waitFor(
        'the endpoint to see the request aborted',
        async () => server.requests[0]!.closedAt !== undefined,
        2_000,
        10,
      );
      const closedAfter = server.requests[0]!.closedAt! - started;
      expect(closedAfter).toBeGreaterThanOrEqual(750);
      expect(closedAfter).toBeLessThan(800 + 400);
      // … and gives the model's only slot back: the next request is served at once.
      const next = await complete({ messages: [{ role: 'user', content: 'again' }] }, { timeoutMs: 2_000 });
      expect(next.text).toBe('Hello from the fake server.');
    });

    it('answers RESOURCE_EXHAUSTED at once to a request that finds the model busy, naming the model', async () => {
      server.script({ kind: 'delay', ms: 700 });
      let firstDone = false;
      const first = complete({ task: 'describe_tool_call', taskInput: { toolName: 'get_time' } }).finally(
        () => (firstDone = true),
      );
      await server.waitForRequests(1);
      const asked = performance.now();
      const error = await rpcFailure(
        complete({ task: 'describe_tool_call', taskInput: { toolName: 'get_weather' } }),
      );
      expect(performance.now() - asked).toBeLessThan(300);
      expect(firstDone).toBe(false);
      expect(error.code).toBe('RESOURCE_EXHAUSTED');
      expect(error.message).toBe('model openai-chat is busy (1 running, 0 waiting)');
      expect(error.details).toMatchObject({ model: 'openai-chat', retryable: true });
      expect((await first).text).toBe('Hello from the fake server.');
      expect(server.requests).toHaveLength(1); // the refused one never reached the endpoint
    });
  });
});

/**
 * Gerty with a models file: a task with a model of its own (RivetOS's TOOL_SYNTH_MODEL, for any
 * task) and models asked to think, both on one fake endpoint that records which model was asked.
 */
describe('gerty with a model per task and reasoning models (models file, fake OpenAI server)', () => {
  let server: FakeOpenAiServer;
  let gerty: ServiceUnderTest;
  let dir: string;

  beforeAll(async () => {
    server = await startFakeOpenAiServer();
    dir = mkdtempSync(join(tmpdir(), 'gerty-tasks-'));
    const modelsFile = join(dir, 'models.yaml');
    writeFileSync(
      modelsFile,
      `defaults:
  completion: fast
  tasks:
    summarize: thinker
models:
  fast:
    provider: openai
    model: fake-fast
    baseUrl: ${server.url}
    thinking: { effort: none }
  thinker:
    provider: openai
    model: fake-thinker
    baseUrl: ${server.url}
    thinking: { enabled: true }
`,
    );
    gerty = await startServiceUnderTest({
      label: 'gerty_tasks',
      loadConfig: loadGertyConfig,
      module: (config) => GertyModule.register(config),
      config: { GERTY_MODELS_FILE: modelsFile },
      overrides: [{ provide: OPENAI_RETRY_SCHEDULE, useValue: FAST_RETRIES }],
    });
  });

  afterAll(async () => {
    await gerty?.stop();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends each task to its own model, asked to think as configured, and keeps the thoughts out of the answer', async () => {
    server.script(
      {
        kind: 'content',
        content:
          '<think>One request, then the merge: two lines.</think>\nAda asked for PR #482; it was merged.',
      },
      { kind: 'content', content: 'Looked up the time.' },
    );
    const summary = await gerty.rpc.call(Rpcs.gertyComplete, {
      task: 'summarize',
      taskInput: {
        preamble: { conversationId: 'c-7', agent: 'opus', from: at(0), to: at(3), messageCount: 2 },
        lines: [
          { id: 'm-1', role: 'user', author: 'ada', at: at(0), text: 'Please merge PR #482.' },
          { id: 'm-2', role: 'assistant', author: 'opus', at: at(3), text: 'Merged.' },
        ],
        maxChars: 300,
      },
    });
    expect(server.requests[0]!.body).toMatchObject({
      model: 'fake-thinker',
      chat_template_kwargs: { enable_thinking: true },
    });
    expect(summary.text).toBe('Ada asked for PR #482; it was merged.');
    expect(summary.model).toBe('openai:fake-thinker');

    // Any other task goes to the completion default, told not to reason.
    const sentence = await gerty.rpc.call(Rpcs.gertyComplete, {
      task: 'describe_tool_call',
      taskInput: { toolName: 'get_time' },
    });
    expect(server.requests[1]!.body).toMatchObject({ model: 'fake-fast', reasoning_effort: 'none' });
    expect(server.requests[1]!.body.chat_template_kwargs).toBeUndefined();
    expect(sentence.model).toBe('openai:fake-fast');
  });
});
