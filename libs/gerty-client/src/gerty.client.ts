import { Injectable } from '@nestjs/common';
import { toJson } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { Rpcs, type ListModelsResponse } from '@engram/contracts';
import { callDependency, RpcClient } from '@engram/messaging';
import { ReadinessRegistry } from '@engram/platform';
import { parseTaskAnswer, type TaskAnswer, type TaskName, type TaskRequest } from '@engram/prompts';
import { taskInputStruct } from './task-input-struct';

export interface GertyCallOptions {
  /** Whose request it is: a tenant's own key for a remote model is used for it. */
  readonly tenantId?: string;
  /** How long the caller waits; the deadline travels with the request, so Gerty stops working when it passes. */
  readonly timeoutMs: number;
  /**
   * A consumer's work: Gerty down, busy or too slow (UNAVAILABLE, DEADLINE_EXCEEDED,
   * RESOURCE_EXHAUSTED) fails as a DependencyUnavailableError, so the work waits for it
   * instead of failing (callDependency). Without it such a failure is the RpcError itself.
   * Such a call also hears Gerty's heartbeat: a Gerty killed or stalled while it holds the
   * request fails the call within seconds, not at its timeout.
   */
  readonly asDependency?: boolean;
  /** A task for this model (a configured name); without it, Gerty's default completion model. */
  readonly model?: string;
  /** A tenant's own key for that model, for this request only (never stored, never logged). */
  readonly apiKey?: string;
}

/** Vectors of texts, in their order, and the model that made them. */
export interface EmbeddedTexts {
  readonly vectors: number[][];
  readonly model: string;
  readonly dimensions: number;
}

/** What a readiness check of Gerty shows on /health/ready; it rejects (with the reason) when Gerty is not usable. */
export type GertyReadinessCheck = () => Promise<Record<string, unknown>>;

const MODELS_TIMEOUT_MS = 5000;
/** Gerty says "working" this often on a consumer's call; silence for HEARTBEATS_MISSED of them ends the call. */
const DEPENDENCY_HEARTBEAT_MS = 2000;

/**
 * Gerty as every caller sees it: Engram's tasks with typed requests and answers (the map in
 * libs/prompts), vectors for texts, and the models it serves. Failures are Gerty's RpcErrors,
 * or a TaskAnswerShapeError when a model answered a task in another shape.
 */
@Injectable()
export class GertyClient {
  constructor(
    private readonly rpc: RpcClient,
    private readonly readiness: ReadinessRegistry,
  ) {}

  /** A task's answer, checked against the task's answer schema, with the model that gave it. */
  async complete<T extends TaskName>(
    task: T,
    request: TaskRequest<T>,
    options: GertyCallOptions,
  ): Promise<TaskAnswer<T>> {
    const reply = await this.call(options, () =>
      this.rpc.call(
        Rpcs.gertyComplete,
        {
          task,
          taskInput: taskInputStruct(request),
          ...tenantOf(options),
          ...(options.model && { model: options.model }),
          ...(options.apiKey && { apiKey: options.apiKey }),
        },
        callOptions(options),
      ),
    );
    return parseTaskAnswer(task, {
      text: reply.text,
      json: reply.json && toJson(ValueSchema, reply.json),
      model: reply.model,
    });
  }

  /** One vector per text, in order, by Gerty's default embedding model. */
  async embed(texts: readonly string[], options: GertyCallOptions): Promise<EmbeddedTexts> {
    const reply = await this.call(options, () =>
      this.rpc.call(Rpcs.gertyEmbed, { texts: [...texts], ...tenantOf(options) }, callOptions(options)),
    );
    if (reply.vectors.length !== texts.length)
      throw new Error(
        `gerty's model ${reply.model} answered ${reply.vectors.length} vectors for ${texts.length} texts`,
      );
    return { vectors: reply.vectors.map((v) => v.values), model: reply.model, dimensions: reply.dimensions };
  }

  /** The models Gerty serves and its defaults. */
  models(options: Partial<GertyCallOptions> = {}): Promise<ListModelsResponse> {
    return this.call(options, () =>
      this.rpc.call(Rpcs.gertyModelsList, {}, { timeoutMs: options.timeoutMs ?? MODELS_TIMEOUT_MS }),
    );
  }

  /**
   * Makes the service ready only while Gerty answers `check` (by default: it lists its
   * models); a consumer that failed because Gerty is down resumes once this passes again.
   */
  registerReadiness(check: GertyReadinessCheck = () => this.defaultModels()): void {
    this.readiness.register({ name: 'gerty', check });
  }

  private async defaultModels(): Promise<Record<string, unknown>> {
    const listed = await this.models();
    return {
      embeddingModel: listed.defaultEmbeddingModel,
      completionModel: listed.defaultCompletionModel,
    };
  }

  private call<R>(options: Partial<GertyCallOptions>, request: () => Promise<R>): Promise<R> {
    return options.asDependency ? callDependency('gerty', request) : request();
  }
}

/** The call's timeout, and for a consumer's work the heartbeat that ends it early when Gerty is gone. */
function callOptions(options: GertyCallOptions): { timeoutMs: number; heartbeatMs?: number } {
  return options.asDependency
    ? { timeoutMs: options.timeoutMs, heartbeatMs: DEPENDENCY_HEARTBEAT_MS }
    : { timeoutMs: options.timeoutMs };
}

function tenantOf(options: GertyCallOptions): { tenantId?: string } {
  return options.tenantId ? { tenantId: options.tenantId } : {};
}
