import { Injectable } from '@nestjs/common';
import { fromJson, type JsonValue } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import type { z } from 'zod';
import type { CompleteRequest, CompleteResponseSchema, MessageInitShape } from '@engram/contracts';
import type { ChatMessage } from '@engram/inference';
import { RpcError } from '@engram/messaging';
import {
  citingOnlyHits,
  memoryAnswer,
  parseTaskInput,
  renderTaskPrompt,
  TASK_ANSWERS,
  type AnswerFromMemoryInput,
  type TaskInput,
  type TaskName,
} from '@engram/prompts';
import { TenantKeysService } from '../keys/tenant-keys.service';
import { toRpcError } from '../models/inference-failure';
import { ModelRouter, type RoutedModel } from '../models/model-router';
import { BUILTIN_TASKS } from '../providers/builtin/builtin.provider';
import type { Completion } from '../providers/model-provider';

/**
 * gerty.rpc.complete. An Engram task (TASKS) is run natively by the built-in model (those it
 * can do: scene memory's need a language model), or rendered into its prompt for a language
 * model, whose answer is checked; free-form chat goes to a language model as is.
 * The request passed its rules (libs/contracts completeRules: a known task, or chat messages
 * in known roles); the task's input is checked here, against the task's schema (libs/prompts).
 */
@Injectable()
export class CompleteUseCase {
  constructor(
    private readonly router: ModelRouter,
    private readonly keys: TenantKeysService,
  ) {}

  async complete(
    request: CompleteRequest,
    signal: AbortSignal,
  ): Promise<MessageInitShape<typeof CompleteResponseSchema>> {
    // A request that names no model gets its task's model (the models file's defaults.tasks), else the default.
    const route = this.router.resolve(request.model, 'complete', (request.task as TaskName) || undefined);
    const apiKey = await this.keys.keyFor(route.definition, request.tenantId, request.apiKey);
    const options = { signal, ...(apiKey && { apiKey }) };
    try {
      const result = await route.admission.run(() =>
        request.task ? this.runTask(route, request, options) : this.chat(route, request, options),
      );
      return {
        text: result.text,
        // google.protobuf.Value: any JSON, as JSON.
        ...(result.json !== undefined && { json: fromJson(ValueSchema, result.json) }),
        model: route.provider.completionModelId ?? route.provider.modelId,
        promptTokens: result.promptTokens ?? 0,
        completionTokens: result.completionTokens ?? 0,
      };
    } catch (error) {
      throw toRpcError(error, route.definition.name);
    }
  }

  private async runTask(
    route: RoutedModel,
    request: CompleteRequest,
    options: { signal: AbortSignal; apiKey?: string },
  ): Promise<Completion> {
    const task = request.task as TaskName;
    const input = parseTaskInput(task, request.taskInput ?? {});
    if (!input.ok)
      throw RpcError.invalidArgument(`taskInput is not a valid ${task} input`, { problems: input.problems });
    if (route.provider.runTask)
      return this.grounded(task, input.value, route.provider.runTask(task, input.value));
    const prompt = renderTaskPrompt(task, input.value);
    const answer = await route.provider.complete(
      {
        ...prompt,
        ...(request.maxTokens && { maxTokens: request.maxTokens }),
        ...(request.temperature !== undefined && { temperature: request.temperature }),
      },
      options,
    );
    return this.grounded(task, input.value, this.checked(task, answer));
  }

  /** A language model's answer in the shape the built-in one gives: text trimmed, JSON read by the task's schema. */
  private checked(task: TaskName, answer: Completion): Completion {
    const expected = TASK_ANSWERS[task];
    if (expected.from === 'text') return { ...answer, text: answer.text.trim() };
    const parsed = expected.schema.safeParse(answer.json);
    if (!parsed.success) throw notInShape(task, parsed.error);
    return { ...answer, json: parsed.data as JsonValue };
  }

  /** Whichever model answered, an answer from memory cites only the hits it was given. */
  private grounded<T extends TaskName>(task: T, input: TaskInput<T>, answer: Completion): Completion {
    if (task !== 'answer_from_memory') return answer;
    const parsed = memoryAnswer.safeParse(answer.json);
    if (!parsed.success) throw notInShape(task, parsed.error);
    const cited = citingOnlyHits(parsed.data, (input as AnswerFromMemoryInput).hits);
    return { ...answer, text: cited.answer, json: cited };
  }

  private async chat(
    route: RoutedModel,
    request: CompleteRequest,
    options: { signal: AbortSignal; apiKey?: string },
  ): Promise<Completion> {
    if (route.provider.runTask) {
      throw RpcError.failedPrecondition(
        `the built-in model does Engram's tasks (${BUILTIN_TASKS.join(', ')}), not free-form prompts: configure a language model (see README, "Models")`,
      );
    }
    return route.provider.complete(
      {
        messages: request.messages.map((m) => ({ role: m.role, content: m.content }) as ChatMessage),
        ...(request.jsonSchema && { jsonSchema: request.jsonSchema as Record<string, unknown> }),
        ...(request.maxTokens && { maxTokens: request.maxTokens }),
        ...(request.temperature !== undefined && { temperature: request.temperature }),
      },
      options,
    );
  }
}

/** A model answered a task in another shape: its fault, not the caller's (INTERNAL), naming the first problem. */
function notInShape(task: TaskName, error: z.ZodError): RpcError {
  const issue = error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return new RpcError(
    'INTERNAL',
    `the model's ${task} answer is not in the expected shape: ${where}${issue?.message ?? 'unknown'}`,
  );
}
