import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { embedRequests, GertyClient, type EmbeddedTexts } from '@engram/gerty-client';
import { RpcError } from '@engram/messaging';
import { TaskAnswerShapeError, type TaskName, type TaskOutput, type TaskRequest } from '@engram/prompts';
import { PATROL_CONFIG, type PatrolConfig } from '../patrol.config';
import type { ModelRun, PatrolModel } from './patrol-step';

/**
 * Gerty as the patrol uses it: vectors for scenes (whatever the embedding model), and the
 * language model that repairs scene notes, consolidates, splits, writes the diary and think notes. The built-in
 * model embeds but cannot do those, so a run without another model is mechanical only.
 */
@Injectable()
export class PatrolGertyGateway implements OnModuleInit {
  constructor(
    private readonly gerty: GertyClient,
    @Inject(PATROL_CONFIG) private readonly config: PatrolConfig,
  ) {}

  onModuleInit(): void {
    this.gerty.registerReadiness();
  }

  /** One vector per text, in order: one batch, sent in requests that fit NATS, all by one model. */
  async embed(tenantId: string, texts: readonly string[]): Promise<EmbeddedTexts> {
    const answers: EmbeddedTexts[] = [];
    for (const request of embedRequests(texts, this.config.EMBEDDING_DIMENSIONS))
      answers.push(await this.gerty.embed(request, { tenantId, timeoutMs: this.config.GERTY_TIMEOUT_MS }));
    const [first] = answers;
    if (!first) return { vectors: [], model: '', dimensions: this.config.EMBEDDING_DIMENSIONS };
    const other = answers.find((a) => a.model !== first.model);
    if (other)
      throw new Error(`gerty's embedding model changed mid-batch (${first.model}, then ${other.model})`);
    return { vectors: answers.flatMap((a) => a.vectors), model: first.model, dimensions: first.dimensions };
  }

  /**
   * The language model for this run: the one asked for, else the agent's, else Gerty's
   * default completion model — null when that is the built-in model or Gerty does not know it.
   */
  async modelFor(
    requested: { model?: string; apiKey?: string },
    agentModel: string | null,
  ): Promise<PatrolModel | null> {
    const listed = await this.gerty.models({ timeoutMs: this.config.GERTY_TIMEOUT_MS });
    const name = requested.model || agentModel || listed.defaultCompletionModel;
    const model = listed.models.find((m) => m.name === name);
    if (!model || !model.completes || model.provider === 'builtin') return null;
    return { name, ...(requested.apiKey && { apiKey: requested.apiKey }) };
  }

  /**
   * A task of the run's language model, its answer held to `check`: what `check` makes of it,
   * or null when the answer is refused whole — `check` refuses it (null), or it is not in the
   * task's shape (Gerty's INTERNAL, or the client's TaskAnswerShapeError). Any other failure
   * (Gerty down, too slow) fails the run, which the next run resumes.
   */
  async checkedAnswer<T extends TaskName, R>(
    task: T,
    input: TaskRequest<T>,
    run: ModelRun,
    check: (output: TaskOutput<T>, model: string) => R | null,
  ): Promise<R | null> {
    try {
      const { output, model } = await this.gerty.complete(task, input, {
        tenantId: run.tenantId,
        timeoutMs: this.config.GERTY_TIMEOUT_MS,
        model: run.model.name,
        ...(run.model.apiKey && { apiKey: run.model.apiKey }),
      });
      return check(output, model);
    } catch (error) {
      if (error instanceof TaskAnswerShapeError || (error instanceof RpcError && error.code === 'INTERNAL'))
        return null;
      throw error;
    }
  }
}
