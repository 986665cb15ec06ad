import { fromJson, type JsonValue } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { Rpcs, type RpcSpec } from '@engram/contracts';
import { DependencyUnavailableError, RpcError, type RpcClient } from '@engram/messaging';
import { ReadinessRegistry } from '@engram/platform';
import { TaskAnswerShapeError } from '@engram/prompts';
import { GertyClient } from './gerty.client';

interface Call {
  readonly subject: string;
  readonly request: Record<string, unknown>;
  readonly options: unknown;
}

/** A GertyClient over an RpcClient that answers each subject with `answers[subject]`, recording the calls. */
function gertyAnswering(answers: Record<string, (request: Record<string, unknown>) => Promise<unknown>>) {
  const calls: Call[] = [];
  const rpc = {
    call: (spec: RpcSpec, request: Record<string, unknown>, options: unknown) => {
      calls.push({ subject: spec.subject, request, options });
      return answers[spec.subject]!(request);
    },
  } as unknown as RpcClient;
  const readiness = new ReadinessRegistry();
  return { gerty: new GertyClient(rpc, readiness), readiness, calls };
}

describe('GertyClient', () => {
  const facts = { facts: [{ content: 'Ada lives in Lisbon.', category: 'fact', importance: 6 }] };

  it('asks for a task with its request as JSON, for the tenant, within the timeout, and answers its typed output', async () => {
    const { gerty, calls } = gertyAnswering({
      [Rpcs.gertyComplete.subject]: async () => ({
        text: '',
        json: fromJson(ValueSchema, facts),
        model: 'm1',
      }),
    });
    const messages = [
      {
        id: '7',
        at: '2026-02-22T10:00:00Z',
        role: 'user' as const,
        author: undefined,
        text: 'I live in Lisbon.',
      },
    ];
    const answer = await gerty.complete('extract_facts', { messages }, { tenantId: 'acme', timeoutMs: 1234 });

    expect(answer).toEqual({
      output: { facts: [{ ...facts.facts[0], sourceMessageIds: [] }] },
      model: 'm1',
    });
    expect(calls).toEqual([
      {
        subject: Rpcs.gertyComplete.subject,
        request: {
          task: 'extract_facts',
          taskInput: {
            messages: [{ id: '7', at: '2026-02-22T10:00:00Z', role: 'user', text: 'I live in Lisbon.' }],
          },
          tenantId: 'acme',
        },
        options: { timeoutMs: 1234 },
      },
    ]);
  });

  it('names the model and passes a tenant key for this request when asked to', async () => {
    const { gerty, calls } = gertyAnswering({
      [Rpcs.gertyComplete.subject]: async () => ({ text: 'A tool call.', model: 'openai:gpt' }),
    });
    await gerty.complete(
      'describe_tool_call',
      { toolName: 'weather' },
      { tenantId: 'acme', timeoutMs: 50, model: 'cloud-chat', apiKey: 'sk-tenant' },
    );
    expect(calls[0]!.request).toMatchObject({ model: 'cloud-chat', apiKey: 'sk-tenant', tenantId: 'acme' });
  });

  it('fails as a dependency that is down only when the call is a consumer’s work', async () => {
    const late = new RpcError('DEADLINE_EXCEEDED', 'gerty.rpc.complete did not answer within 10 ms');
    const { gerty } = gertyAnswering({ [Rpcs.gertyComplete.subject]: () => Promise.reject(late) });
    const request = { toolName: 'weather' };

    await expect(
      gerty.complete('describe_tool_call', request, { timeoutMs: 10, asDependency: true }),
    ).rejects.toThrow(new DependencyUnavailableError(`gerty: ${late.message}`));
    await expect(gerty.complete('describe_tool_call', request, { timeoutMs: 10 })).rejects.toBe(late);

    const wrong = new RpcError('INVALID_ARGUMENT', 'taskInput is not a valid describe_tool_call input');
    const refusing = gertyAnswering({ [Rpcs.gertyComplete.subject]: () => Promise.reject(wrong) });
    await expect(
      refusing.gerty.complete('describe_tool_call', request, { timeoutMs: 10, asDependency: true }),
    ).rejects.toBe(wrong);
  });

  it('refuses an answer in another shape than the task’s', async () => {
    const { gerty } = gertyAnswering({
      [Rpcs.gertyComplete.subject]: async () => ({ text: 'facts, in prose', model: 'openai:x' }),
    });
    const asked = gerty.complete(
      'extract_facts',
      { messages: [{ id: '1', at: '2026-02-22T10:00:00Z', role: 'user', text: 'hi' }] },
      { timeoutMs: 10, asDependency: true },
    );
    await expect(asked).rejects.toBeInstanceOf(TaskAnswerShapeError);
  });

  it('asks for a scene-memory task and answers its typed output, or refuses it in another shape', async () => {
    let json: JsonValue = { groups: [{ name: 'Baking', nodeIds: ['1', '2'] }] };
    const { gerty, calls } = gertyAnswering({
      [Rpcs.gertyComplete.subject]: async () => ({
        text: '',
        json: fromJson(ValueSchema, json),
        model: 'openai:x',
      }),
    });
    const request = {
      cluster: { name: 'Everyday' },
      nodes: ['1', '2', '3', '4'].map((id) => ({ id, scene: `scene ${id}` })),
    };
    const answer = await gerty.complete('split_cluster', request, { timeoutMs: 10 });
    expect(answer.output.groups[0]!.nodeIds).toEqual(['1', '2']);
    expect(calls[0]!.request).toEqual({ task: 'split_cluster', taskInput: request });

    json = { groups: [{ name: 'Baking', nodeIds: '1,2' }] };
    await expect(gerty.complete('split_cluster', request, { timeoutMs: 10 })).rejects.toThrow(
      /answered split_cluster in another shape \(groups\.0\.nodeIds: /,
    );
  });

  it('answers one vector per text with the model and width, and refuses a count that does not match', async () => {
    const { gerty, calls } = gertyAnswering({
      [Rpcs.gertyEmbed.subject]: async (request) => ({
        vectors: (request.texts as string[]).map((_, i) => ({ values: [i, 1] })),
        model: 'engram-local',
        dimensions: 2,
      }),
    });
    expect(await gerty.embed(['a', 'b'], { timeoutMs: 50 })).toEqual({
      vectors: [
        [0, 1],
        [1, 1],
      ],
      model: 'engram-local',
      dimensions: 2,
    });
    expect(calls[0]).toMatchObject({ request: { texts: ['a', 'b'] }, options: { timeoutMs: 50 } });

    const short = gertyAnswering({
      [Rpcs.gertyEmbed.subject]: async () => ({ vectors: [{ values: [1] }], model: 'm', dimensions: 1 }),
    });
    await expect(short.gerty.embed(['a', 'b'], { timeoutMs: 50 })).rejects.toThrow(
      "gerty's model m answered 1 vectors for 2 texts",
    );
  });

  it('makes the service ready only while Gerty lists its models', async () => {
    let up = true;
    const { gerty, readiness } = gertyAnswering({
      [Rpcs.gertyModelsList.subject]: async () => {
        if (!up) throw new RpcError('UNAVAILABLE', 'no service answers gerty.rpc.models.list');
        return { defaultEmbeddingModel: 'local', defaultCompletionModel: 'chat', models: [] };
      },
    });
    gerty.registerReadiness();
    const [check] = readiness.all();
    expect(check!.name).toBe('gerty');
    await expect(check!.check()).resolves.toEqual({ embeddingModel: 'local', completionModel: 'chat' });
    up = false;
    expect(await readiness.allReady()).toBe(false);
  });
});
