import { fromJson } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { Rpcs, timestampFromDate } from '@engram/contracts';
import { GertyClient } from '@engram/gerty-client';
import { RpcError, type RpcClient } from '@engram/messaging';
import { ReadinessRegistry } from '@engram/platform';
import { ANSWER_FROM_MEMORY_LIMITS } from '@engram/prompts';
import type { RetrievalConfig } from '../retrieval.config';
import { AnswerSynthesizerGateway } from './answer-synthesizer.gateway';

describe('AnswerSynthesizerGateway', () => {
  const config = { SEARCH_SYNTHESIS_TIMEOUT_MS: 1234 } as RetrievalConfig;
  const hit = (id: string, content: string, author = '') => ({
    id,
    kind: 'message',
    content,
    createdAt: timestampFromDate(new Date('2026-06-01T10:00:00Z')),
    provenance: { author },
  });

  function gatewayAnswering(answer: (request: unknown) => Promise<unknown>) {
    const calls: Array<{ spec: unknown; request: Record<string, unknown>; options: unknown }> = [];
    const rpc = {
      call: (spec: unknown, request: Record<string, unknown>, options: unknown) => {
        calls.push({ spec, request, options });
        return answer(request);
      },
    } as unknown as RpcClient;
    return {
      gateway: new AnswerSynthesizerGateway(new GertyClient(rpc, new ReadinessRegistry()), config),
      calls,
    };
  }

  it('asks Gerty for answer_from_memory over the best hits as refs, cut to the task’s bounds, within the configured time', async () => {
    const { gateway, calls } = gatewayAnswering(async () => ({
      json: fromJson(ValueSchema, { answer: 'Bailey and Oliver [message:1].', citedIds: ['message:1'] }),
      model: 'engram-local-rules-v1',
    }));
    const hits = [
      hit('1', 'x'.repeat(ANSWER_FROM_MEMORY_LIMITS.contentChars + 10), 'Ada'),
      ...Array.from({ length: 40 }, (_, i) => hit(String(i + 2), 'cats')),
    ];
    const outcome = await gateway.answer('acme', 'cats?', hits);

    expect(outcome).toEqual({
      synthesis: {
        answer: 'Bailey and Oliver [message:1].',
        citedIds: ['message:1'],
        model: 'engram-local-rules-v1',
      },
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.spec).toBe(Rpcs.gertyComplete);
    expect(calls[0]!.options).toEqual({ timeoutMs: 1234 });
    const { task, tenantId, taskInput } = calls[0]!.request as {
      task: string;
      tenantId: string;
      taskInput: { question: string; hits: Array<Record<string, unknown>> };
    };
    expect([task, tenantId, taskInput.question]).toEqual(['answer_from_memory', 'acme', 'cats?']);
    expect(taskInput.hits).toHaveLength(ANSWER_FROM_MEMORY_LIMITS.hits);
    expect(taskInput.hits[0]).toEqual({
      id: 'message:1',
      kind: 'message',
      content: 'x'.repeat(ANSWER_FROM_MEMORY_LIMITS.contentChars),
      createdAt: '2026-06-01T10:00:00.000Z',
      author: 'Ada',
    });
    expect(taskInput.hits[1]).not.toHaveProperty('author');
  });

  it('says why there is no synthesis when Gerty fails, times out or answers something else', async () => {
    const failing = gatewayAnswering(() =>
      Promise.reject(new RpcError('DEADLINE_EXCEEDED', 'gerty.rpc.complete did not answer within 1234 ms')),
    );
    expect(await failing.gateway.answer('acme', 'cats?', [hit('1', 'cats')])).toEqual({
      synthesis: null,
      reason: 'no synthesis (gerty: gerty.rpc.complete did not answer within 1234 ms)',
    });
    const odd = gatewayAnswering(async () => ({ model: 'openai:x', text: 'cats' }));
    expect(await odd.gateway.answer('acme', 'cats?', [hit('1', 'cats')])).toEqual({
      synthesis: null,
      reason: 'no synthesis (gerty: model openai:x answered answer_from_memory without JSON)',
    });
  });
});
