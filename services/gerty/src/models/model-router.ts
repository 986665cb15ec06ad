import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { TaskName } from '@engram/contracts';
import type { RetrySchedule } from '@engram/inference';
import { RpcError } from '@engram/messaging';
import { ShutdownBudget } from '@engram/platform';
import { GERTY_CONFIG, type GertyConfig } from '../gerty.config';
import { BuiltinProvider } from '../providers/builtin/builtin.provider';
import type { ModelProvider } from '../providers/model-provider';
import { OpenAiCompatibleClient } from '../providers/openai/openai-compatible.client';
import { OpenAiProvider } from '../providers/openai/openai.provider';
import { ModelAdmission } from './model-admission';
import { loadModelCatalog, type ModelCatalog, type ModelDefinition } from './model-catalog';

/**
 * When the OpenAI-compatible clients retry (network errors, 429, 5xx): DEFAULT_RETRY_SCHEDULE
 * (5, 10, 15 s), as GertyModule provides it. Not a setting: a test that needs quick retries
 * overrides this provider (Test.createTestingModule(…).overrideProvider(OPENAI_RETRY_SCHEDULE)).
 */
export const OPENAI_RETRY_SCHEDULE = Symbol('OPENAI_RETRY_SCHEDULE');

export interface RoutedModel {
  readonly definition: ModelDefinition;
  readonly provider: ModelProvider;
  readonly admission: ModelAdmission;
}

/**
 * Every configured model, ready to use: its provider (the built-in engine, or a
 * client per OpenAI-compatible endpoint, shared by the models on it) and its
 * admission limits. A bad models file stops the start with what is wrong.
 */
@Injectable()
export class ModelRouter implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ModelRouter.name);
  private readonly routes = new Map<string, RoutedModel>();
  private readonly clients = new Map<string, OpenAiCompatibleClient>();
  private catalog!: ModelCatalog;

  constructor(
    @Inject(GERTY_CONFIG) private readonly config: GertyConfig,
    @Inject(OPENAI_RETRY_SCHEDULE) private readonly retry: RetrySchedule,
    private readonly shutdown: ShutdownBudget,
  ) {}

  onModuleInit(): void {
    this.catalog = loadModelCatalog({
      ...(this.config.GERTY_MODELS_FILE && { modelsFile: this.config.GERTY_MODELS_FILE }),
      openAi: {
        baseUrl: this.config.GERTY_OPENAI_BASE_URL,
        apiKey: this.config.GERTY_OPENAI_API_KEY,
        chatModel: this.config.GERTY_OPENAI_CHAT_MODEL,
        embeddingModel: this.config.GERTY_OPENAI_EMBEDDING_MODEL,
      },
      embeddingDimensions: this.config.EMBEDDING_DIMENSIONS,
      limits: {
        concurrency: this.config.GERTY_MODEL_CONCURRENCY,
        maxQueued: this.config.GERTY_MODEL_MAX_QUEUED,
      },
    });
    let builtin: BuiltinProvider | undefined;
    for (const definition of this.catalog.models.values()) {
      const provider =
        definition.provider === 'builtin'
          ? (builtin ??= BuiltinProvider.load(this.config.GERTY_LOCAL_MODEL_PATH))
          : new OpenAiProvider(definition, this.clientFor(definition.baseUrl!));
      this.routes.set(definition.name, {
        definition,
        provider,
        admission: new ModelAdmission(definition.name, definition.maxQueued, definition.concurrency),
      });
    }
    this.logger.log(
      `models: ${[...this.routes.values()].map((r) => `${r.definition.name} (${r.provider.modelId})`).join(', ')}; ` +
        `embedding: ${this.catalog.defaultEmbeddingModel}, completion: ${this.catalog.defaultCompletionModel}`,
    );
    const embedding = this.routes.get(this.catalog.defaultEmbeddingModel)!;
    if (
      embedding.provider.dimensions !== undefined &&
      embedding.provider.dimensions !== this.config.EMBEDDING_DIMENSIONS
    ) {
      throw new Error(
        `the default embedding model ${embedding.provider.modelId} makes ${embedding.provider.dimensions}-d vectors, ` +
          `but EMBEDDING_DIMENSIONS is ${this.config.EMBEDDING_DIMENSIONS}`,
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const clients = [...this.clients.values()];
    // A model still answering may take minutes: past the budget its requests are cut.
    const closed = await this.shutdown.within(
      'closing model connections',
      Promise.all(clients.map((c) => c.close())),
    );
    if (!closed) await Promise.all(clients.map((c) => c.destroy().catch(() => undefined)));
  }

  /** The model to use: the named one, else the task's own (defaults.tasks), else the default for the purpose. */
  resolve(name: string | undefined, purpose: 'embed' | 'complete', task?: TaskName): RoutedModel {
    const wanted =
      name ||
      (purpose === 'embed'
        ? this.catalog.defaultEmbeddingModel
        : ((task && this.catalog.taskModels.get(task)) ?? this.catalog.defaultCompletionModel));
    const route = this.routes.get(wanted);
    if (!route)
      throw RpcError.notFound(`no model named "${wanted}"`, {
        model: wanted,
        known: [...this.routes.keys()],
      });
    if (purpose === 'embed' ? !route.definition.embeds : !route.definition.completes) {
      throw RpcError.invalidArgument(
        `model "${wanted}" does not ${purpose === 'embed' ? 'embed' : 'complete'}`,
        { model: wanted },
      );
    }
    return route;
  }

  /** A model by name, whatever it is for. */
  named(name: string): RoutedModel {
    const route = this.routes.get(name);
    if (!route)
      throw RpcError.notFound(`no model named "${name}"`, { model: name, known: [...this.routes.keys()] });
    return route;
  }

  get defaults() {
    return { embedding: this.catalog.defaultEmbeddingModel, completion: this.catalog.defaultCompletionModel };
  }

  all(): RoutedModel[] {
    return [...this.routes.values()];
  }

  private clientFor(baseUrl: string): OpenAiCompatibleClient {
    let client = this.clients.get(baseUrl);
    if (!client) {
      client = new OpenAiCompatibleClient({
        baseUrl,
        retry: this.retry,
        logger: { warn: (details, message) => this.logger.warn(`${message} ${JSON.stringify(details)}`) },
      });
      this.clients.set(baseUrl, client);
    }
    return client;
  }
}
