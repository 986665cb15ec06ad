import { toJson, type JsonValue } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { Rpcs, type CompleteResponse } from '@engram/contracts';
import { LOCAL_EMBEDDING_MODEL_ID } from '@engram/local-model';
import { RpcClient, RpcError } from '@engram/messaging';
import { startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadGertyConfig } from './gerty.config';
import { GertyModule } from './gerty.module';
import { BUILTIN_COMPLETION_MODEL_ID } from './providers/builtin/builtin.provider';

/** Gerty as configured out of the box: nothing but the built-in model, over real NATS. */
describe('gerty with the built-in model (real NATS and Postgres)', () => {
  let gerty: ServiceUnderTest;
  let rpc: RpcClient;

  beforeAll(async () => {
    gerty = await startServiceUnderTest({
      label: 'gerty_builtin',
      loadConfig: loadGertyConfig,
      module: (config) => GertyModule.register(config),
    });
    ({ rpc } = gerty);
  });

  afterAll(() => gerty?.stop());

  const complete = (request: Parameters<RpcClient['call']>[1]) => rpc.call(Rpcs.gertyComplete, request);
  const jsonOf = (response: CompleteResponse): JsonValue => toJson(ValueSchema, response.json!);

  async function rpcFailure(promise: Promise<unknown>): Promise<RpcError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RpcError);
    return error as RpcError;
  }

  it('lists the built-in model as "local", with its model id and 100 dimensions, as both defaults', async () => {
    const models = await rpc.call(Rpcs.gertyModelsList, {});
    expect(models.defaultEmbeddingModel).toBe('local');
    expect(models.defaultCompletionModel).toBe('local');
    expect(models.models).toHaveLength(1);
    expect(models.models[0]).toMatchObject({
      name: 'local',
      provider: 'builtin',
      modelId: LOCAL_EMBEDDING_MODEL_ID,
      embeds: true,
      completes: true,
      dimensions: 100,
      concurrency: 2,
      maxQueued: 64,
    });
  });

  describe('gerty.rpc.embed', () => {
    it('refuses a tenant id that cannot be one, naming the field', async () => {
      const error = await rpcFailure(rpc.call(Rpcs.gertyEmbed, { texts: ['hi'], tenantId: 'a.b' }));
      expect(error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: {
          fieldViolations: [
            {
              field: 'tenantId',
              description: 'tenantId must be 1-64 letters, digits, "_" or "-" (got "a.b")',
            },
          ],
        },
      });
    });

    const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

    it('answers one unit vector per text, named with the model id; related texts are closer than unrelated ones', async () => {
      const texts = [
        'The cat sat on the mat and purred.',
        'A kitten was sleeping on the rug.',
        'The central bank raised interest rates to fight inflation.',
        'The cat sat on the mat and purred.',
      ];
      const response = await rpc.call(Rpcs.gertyEmbed, { texts, tenantId: 'acme' });
      expect(response.model).toBe(LOCAL_EMBEDDING_MODEL_ID);
      expect(response.dimensions).toBe(100);
      expect(response.vectors).toHaveLength(4);
      const [cat, kitten, bank, catAgain] = response.vectors.map((v) => v.values);
      for (const vector of [cat!, kitten!, bank!]) {
        expect(vector).toHaveLength(100);
        expect(Math.sqrt(cosine(vector, vector))).toBeCloseTo(1, 4);
      }
      expect(catAgain).toEqual(cat); // deterministic
      expect(cosine(cat!, kitten!)).toBeGreaterThan(cosine(cat!, bank!) + 0.1);
      expect(cosine(kitten!, cat!)).toBeGreaterThan(cosine(kitten!, bank!) + 0.1);
    });

    it('answers an empty batch with no vectors, and refuses an unknown model with NOT_FOUND', async () => {
      expect(await rpc.call(Rpcs.gertyEmbed, { texts: [] })).toMatchObject({
        vectors: [],
        model: LOCAL_EMBEDDING_MODEL_ID,
      });
      const error = await rpcFailure(
        rpc.call(Rpcs.gertyEmbed, { texts: ['x'], model: 'text-embedding-3-large' }),
      );
      expect(error.code).toBe('NOT_FOUND');
      expect(error.message).toContain('text-embedding-3-large');
      expect(error.details).toMatchObject({ model: 'text-embedding-3-large', known: ['local'] });
    });
  });

  describe('gerty.rpc.complete: Engram tasks on the built-in engine', () => {
    it('summarize keeps the attribution, the timestamps and the identifiers', async () => {
      const lines = [
        ['ada', 'user', 'Hi!'],
        [
          'ada',
          'user',
          'The deploy of v2.3.1 failed last night because the database migration timed out after 300 s.',
        ],
        [
          'opus',
          'assistant',
          'The migration 1760000000001-embedding-work.ts locks the messages table while it builds the HNSW index.',
        ],
        ['ada', 'user', 'Ok.'],
        [
          'opus',
          'assistant',
          'Opened PR #482 (commit 9f3c2ab1) which builds the index CONCURRENTLY in a separate migration.',
        ],
        ['ada', 'user', 'Great. Staging uses pgvector 0.8.0 and max_connections is 200.'],
        ['ada', 'user', 'Thanks!'],
      ].map(([author, role, text], i) => ({
        id: `m${i + 1}`,
        at: new Date(Date.parse('2026-04-18T12:00:00Z') + i * 4 * 60_000).toISOString(),
        author,
        role,
        text,
      }));
      const response = await complete({
        task: 'summarize',
        taskInput: {
          preamble: {
            conversationId: 'c-42',
            agent: 'opus',
            channel: 'telegram',
            title: 'Deploy review',
            from: lines[0]!.at,
            to: lines.at(-1)!.at,
            messageCount: lines.length,
          },
          lines,
          maxChars: 600,
        },
      });
      expect(response.model).toBe(BUILTIN_COMPLETION_MODEL_ID);
      const [header, ...body] = response.text.split('\n');
      expect(header).toBe(
        'Conversation c-42 · agent opus · channel telegram · "Deploy review" · 2026-04-18T12:00Z–2026-04-18T12:24Z · 7 messages',
      );
      expect(body.length).toBeGreaterThanOrEqual(2);
      for (const line of body) {
        const match = /^\[#(\d{2}) (\S+) (\w+)\/(\w+)\] /.exec(line);
        expect(match).not.toBeNull();
        const source = lines[Number(match![1]) - 1]!;
        expect(match![2]).toBe(`${source.at.slice(0, 16)}Z`);
        expect([match![3], match![4]]).toEqual([source.author, source.role]);
      }
      for (const identifier of ['PR #482', '9f3c2ab1', 'v2.3.1']) expect(response.text).toContain(identifier);
      expect(response.text).not.toContain('Thanks!');
    });

    it('extract_facts answers facts as JSON, with "tomorrow" resolved from the message’s date, citing the message', async () => {
      const response = await complete({
        task: 'extract_facts',
        taskInput: {
          messages: [
            {
              id: 'm-1',
              role: 'user',
              author: 'ada',
              at: '2026-02-22T10:00:00Z',
              text: "I'm going to Paris tomorrow.",
            },
            { id: 'm-2', role: 'assistant', at: '2026-02-22T10:00:05Z', text: 'Have a great trip!' },
            {
              id: 'm-3',
              role: 'user',
              author: 'ada',
              at: '2026-02-22T10:01:00Z',
              text: 'I prefer tea over coffee.',
            },
          ],
        },
      });
      expect(response.model).toBe(BUILTIN_COMPLETION_MODEL_ID);
      const { facts } = jsonOf(response) as { facts: Array<Record<string, unknown>> };
      expect(facts).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            content: 'The user is going to Paris on 2026-02-23.',
            category: 'event',
            sourceMessageIds: ['m-1'],
          }),
          expect.objectContaining({
            content: 'The user prefers tea over coffee.',
            category: 'preference',
            sourceMessageIds: ['m-3'],
          }),
        ]),
      );
      expect(facts).toHaveLength(2);
      for (const fact of facts) expect(fact.importance).toEqual(expect.any(Number));
      expect(JSON.parse(response.text)).toEqual({ facts });
    });

    it('extract_facts leaves a conversation in another language alone (the rules read English)', async () => {
      const extract = async (language?: string) =>
        (
          jsonOf(
            await complete({
              task: 'extract_facts',
              taskInput: {
                messages: [
                  { id: 'm-1', role: 'user', at: '2026-02-22T10:00:00Z', text: 'I prefer tea over coffee.' },
                ],
                ...(language && { language }),
              },
            }),
          ) as { facts: unknown[] }
        ).facts;
      expect(await extract('italian')).toEqual([]);
      expect(await extract('simple')).toEqual([]);
      expect(await extract('english')).toHaveLength(1);
      expect(await extract()).toHaveLength(1);
    });

    it('describe_tool_call answers one sentence', async () => {
      const response = await complete({
        task: 'describe_tool_call',
        taskInput: { toolName: 'search_web', toolArgs: { query: 'pgvector hnsw', limit: 5 } },
      });
      expect(response.text).toBe('Searched the web for "pgvector hnsw" (limit 5).');
      expect(response.model).toBe(BUILTIN_COMPLETION_MODEL_ID);
    });

    it('answer_from_memory quotes the matching sentences with their ids, or says memory holds nothing', async () => {
      const hits = [
        {
          id: 'message:12',
          kind: 'message',
          content: 'Quiet, close to the river. Two cats, Bailey and Oliver.',
          createdAt: '2026-06-01T10:04:00Z',
          author: 'Ada',
        },
        {
          id: 'fact:3',
          kind: 'fact',
          content: 'Ada prefers tea over coffee',
          createdAt: '2026-05-03T08:00:00Z',
        },
      ];
      const response = await complete({
        task: 'answer_from_memory',
        taskInput: { question: 'What are the cats called?', hits },
      });
      expect(response.model).toBe(BUILTIN_COMPLETION_MODEL_ID);
      expect(jsonOf(response)).toEqual({
        answer: 'Ada on 2026-06-01: Two cats, Bailey and Oliver. [message:12]',
        citedIds: ['message:12'],
      });
      expect(response.text).toBe('Ada on 2026-06-01: Two cats, Bailey and Oliver. [message:12]');

      const none = await complete({
        task: 'answer_from_memory',
        taskInput: { question: 'Where does Bob work?', hits },
      });
      expect(jsonOf(none)).toEqual({ answer: 'Memory holds nothing on this.', citedIds: [] });
    });

    it('refuses an unknown task, and a task input that does not fit, with INVALID_ARGUMENT listing the problems', async () => {
      const unknown = await rpcFailure(complete({ task: 'translate', taskInput: { text: 'hola' } }));
      expect(unknown.code).toBe('INVALID_ARGUMENT');
      expect(unknown.details).toEqual({
        fieldViolations: [
          {
            field: 'task',
            description:
              'task must be one of summarize, extract_facts, describe_tool_call, answer_from_memory, ' +
              'consolidate_scenes, split_cluster, write_diary, write_think_notes, repair_scene (got "translate")',
          },
        ],
      });

      const invalid = await rpcFailure(
        complete({
          task: 'extract_facts',
          taskInput: {
            messages: [{ id: 'm-1', role: 'narrator', text: 'I live in Lisbon.', at: 'yesterday' }],
          },
        }),
      );
      expect(invalid.code).toBe('INVALID_ARGUMENT');
      expect(invalid.message).toBe('taskInput is not a valid extract_facts input');
      const problems = invalid.details.problems as string[];
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^messages\[0\]\.at: /),
          expect.stringMatching(/^messages\[0\]\.role: /),
        ]),
      );

      const empty = await rpcFailure(complete({ task: 'summarize' }));
      expect(empty.code).toBe('INVALID_ARGUMENT');
      expect(empty.details.problems).toEqual(
        expect.arrayContaining([expect.stringMatching(/^preamble: /), expect.stringMatching(/^lines: /)]),
      );
    });

    it('refuses free-form chat with FAILED_PRECONDITION: the built-in model only does Engram’s tasks', async () => {
      const error = await rpcFailure(complete({ messages: [{ role: 'user', content: 'Write me a poem.' }] }));
      expect(error.code).toBe('FAILED_PRECONDITION');
      expect(error.message).toMatch(/built-in model does Engram's tasks.*configure a language model/);
      expect(error.message).toContain('(summarize, extract_facts, describe_tool_call, answer_from_memory)');
    });

    it('refuses scene memory’s tasks with FAILED_PRECONDITION: they need a language model', async () => {
      const being = { name: 'Mira', voice: 'Short sentences.' };
      const inputs = {
        consolidate_scenes: {
          being,
          cluster: { name: 'Baking' },
          nodes: [
            { id: '1', scene: 'baked bread', importance: 0.5, status: 'active', fresh: true, pinned: false },
          ],
        },
        split_cluster: {
          cluster: { name: 'Everyday' },
          nodes: ['1', '2', '3'].map((id) => ({ id, scene: `scene ${id}` })),
        },
        write_diary: { being, day: '2026-11-02', scenes: ['2026-11-02 — the kitchen — baked bread'] },
        write_think_notes: { being, day: '2026-11-02', scenes: [] },
        repair_scene: { text: '{"action": "baked bread"}', problems: ['actors: Required'] },
      };
      for (const [task, taskInput] of Object.entries(inputs)) {
        const error = await rpcFailure(complete({ task, taskInput }));
        expect(error.code).toBe('FAILED_PRECONDITION');
        expect(error.message).toBe(
          `task ${task} needs a language model, which the built-in model is not: ` +
            `configure one (see README, "Models"), with the operator's key or a tenant's own (gerty.rpc.keys.put)`,
        );
      }
      // An input that does not fit is named as such first, whichever model would answer.
      const invalid = await rpcFailure(complete({ task: 'write_diary', taskInput: { being, day: 'today' } }));
      expect(invalid.code).toBe('INVALID_ARGUMENT');
      expect(invalid.details.problems).toEqual([
        expect.stringMatching(/^day: /),
        expect.stringMatching(/^scenes: /),
      ]);
    });

    it('refuses an unknown model with NOT_FOUND', async () => {
      const error = await rpcFailure(
        complete({ model: 'gpt-4o', task: 'describe_tool_call', taskInput: { toolName: 'x' } }),
      );
      expect(error.code).toBe('NOT_FOUND');
      expect(error.details).toMatchObject({ model: 'gpt-4o', known: ['local'] });
    });
  });

  it('refuses to store a key for the built-in model, which needs none', async () => {
    const error = await rpcFailure(
      rpc.call(Rpcs.gertyKeysPut, { model: 'local', apiKey: 'sk-x' }, { tenantId: 'acme' }),
    );
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe('model local needs no key');
  });
});
