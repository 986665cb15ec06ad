import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { GertyClient, type EmbeddedTexts } from '@engram/gerty-client';
import type { TaskAnswer, TaskName, TaskRequest } from '@engram/prompts';
import { PATROL_CONFIG, type PatrolConfig } from '../patrol.config';
import type { PatrolModel, PatrolRun } from './patrol-step';

/**
 * Gerty as the patrol uses it: vectors for scenes (whatever the embedding model), and the
 * language model that consolidates, splits, writes the diary and think notes. The built-in
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

  /** One vector per text, in one request (callers keep a batch within Gerty's limit). */
  embed(tenantId: string, texts: readonly string[]): Promise<EmbeddedTexts> {
    return this.gerty.embed(texts, { tenantId, timeoutMs: this.config.GERTY_TIMEOUT_MS });
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

  /** A task of the run's language model (the model steps run only when the run has one). */
  complete<T extends TaskName>(
    task: T,
    input: TaskRequest<T>,
    run: PatrolRun & { readonly model: PatrolModel },
  ): Promise<TaskAnswer<T>> {
    return this.gerty.complete(task, input, {
      tenantId: run.tenantId,
      timeoutMs: this.config.GERTY_TIMEOUT_MS,
      model: run.model.name,
      ...(run.model.apiKey && { apiKey: run.model.apiKey }),
    });
  }
}
