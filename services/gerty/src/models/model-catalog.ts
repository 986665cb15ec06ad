import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { TASKS, type TaskName } from '@engram/contracts';
import { REASONING_EFFORTS, type Thinking } from '@engram/inference';

/** A model Gerty may use, by the name callers give. */
export interface ModelDefinition {
  readonly name: string;
  readonly provider: 'builtin' | 'openai';
  readonly embeds: boolean;
  readonly completes: boolean;
  /** The provider's own model id (remote models). */
  readonly model?: string;
  readonly baseUrl?: string;
  /** Operator's key for the endpoint (from the environment); tenants may bring their own. */
  readonly apiKey?: string;
  /** Width of its vectors (remote embedding models; checked against every answer). */
  readonly dimensions?: number;
  /** How it is asked to reason (remote models); absent: as its server does by default. */
  readonly thinking?: Thinking;
  readonly concurrency: number;
  readonly maxQueued: number;
}

export interface ModelCatalog {
  readonly models: ReadonlyMap<string, ModelDefinition>;
  readonly defaultEmbeddingModel: string;
  readonly defaultCompletionModel: string;
  /** A task's own model (the models file's `defaults.tasks`); the other tasks use the completion default. */
  readonly taskModels: ReadonlyMap<TaskName, string>;
}

export const BUILTIN_MODEL = 'local';

const modelsFileSchema = z.object({
  defaults: z
    .object({
      embedding: z.string().optional(),
      completion: z.string().optional(),
      tasks: z.partialRecord(z.enum(TASKS), z.string()).optional(),
    })
    .strict()
    .optional(),
  models: z.record(
    z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'model names are [A-Za-z0-9_.-]{1,64}'),
    z
      .object({
        provider: z.enum(['builtin', 'openai']),
        model: z.string().optional(),
        baseUrl: z.string().url().optional(),
        apiKeyEnv: z.string().optional(),
        embeds: z.boolean().optional(),
        completes: z.boolean().optional(),
        dimensions: z.number().int().positive().optional(),
        concurrency: z.number().int().min(1).optional(),
        maxQueued: z.number().int().min(0).optional(),
        thinking: z
          .object({ effort: z.enum(REASONING_EFFORTS).optional(), enabled: z.boolean().optional() })
          .strict()
          .optional(),
      })
      .strict()
      .refine((m) => m.provider === 'builtin' || (m.model && m.baseUrl), {
        message: 'an openai model needs model and baseUrl',
      })
      .refine((m) => m.provider === 'openai' || !m.thinking, {
        message: 'thinking is for openai models (the built-in one does not reason)',
      }),
  ),
});

export interface CatalogSources {
  readonly modelsFile?: string;
  readonly openAi?: { baseUrl?: string; apiKey?: string; chatModel?: string; embeddingModel?: string };
  readonly embeddingDimensions: number;
  readonly limits: { concurrency: number; maxQueued: number };
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The models Gerty knows: always the built-in one ("local"); a shorthand remote
 * endpoint from GERTY_OPENAI_*; or everything from a YAML models file. Errors name
 * the file and the problem, and stop the start.
 */
export function loadModelCatalog(sources: CatalogSources): ModelCatalog {
  const { limits } = sources;
  const models = new Map<string, ModelDefinition>();
  models.set(BUILTIN_MODEL, {
    name: BUILTIN_MODEL,
    provider: 'builtin',
    embeds: true,
    completes: true,
    ...limits,
  });
  let defaultEmbeddingModel = BUILTIN_MODEL;
  let defaultCompletionModel = BUILTIN_MODEL;
  let taskModels = new Map<TaskName, string>();

  const openAi = sources.openAi;
  if (openAi?.baseUrl) {
    const base = { provider: 'openai' as const, baseUrl: openAi.baseUrl, apiKey: openAi.apiKey, ...limits };
    if (openAi.chatModel) {
      models.set('openai-chat', {
        ...base,
        name: 'openai-chat',
        model: openAi.chatModel,
        embeds: false,
        completes: true,
      });
      defaultCompletionModel = 'openai-chat';
    }
    if (openAi.embeddingModel) {
      models.set('openai-embedding', {
        ...base,
        name: 'openai-embedding',
        model: openAi.embeddingModel,
        embeds: true,
        completes: false,
        dimensions: sources.embeddingDimensions,
      });
      defaultEmbeddingModel = 'openai-embedding';
    }
  }

  if (sources.modelsFile) {
    let parsed: unknown;
    try {
      parsed = parse(readFileSync(sources.modelsFile, 'utf8'));
    } catch (error) {
      throw new Error(`GERTY_MODELS_FILE ${sources.modelsFile}: ${(error as Error).message}`);
    }
    const file = modelsFileSchema.safeParse(parsed);
    if (!file.success) {
      throw new Error(
        `GERTY_MODELS_FILE ${sources.modelsFile}: ${file.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    for (const [name, m] of Object.entries(file.data.models)) {
      const apiKey = m.apiKeyEnv ? (sources.env ?? process.env)[m.apiKeyEnv] : undefined;
      if (m.apiKeyEnv && !apiKey) {
        throw new Error(
          `GERTY_MODELS_FILE ${sources.modelsFile}: model ${name} reads its key from ${m.apiKeyEnv}, which is not set`,
        );
      }
      models.set(name, {
        name,
        provider: m.provider,
        embeds: m.embeds ?? m.provider === 'builtin',
        completes: m.completes ?? true,
        ...(m.model && { model: m.model }),
        ...(m.baseUrl && { baseUrl: m.baseUrl }),
        ...(apiKey && { apiKey }),
        ...(m.dimensions && { dimensions: m.dimensions }),
        ...(m.thinking && { thinking: m.thinking }),
        concurrency: m.concurrency ?? limits.concurrency,
        maxQueued: m.maxQueued ?? limits.maxQueued,
      });
    }
    defaultEmbeddingModel = file.data.defaults?.embedding ?? defaultEmbeddingModel;
    defaultCompletionModel = file.data.defaults?.completion ?? defaultCompletionModel;
    taskModels = new Map(Object.entries(file.data.defaults?.tasks ?? {}) as Array<[TaskName, string]>);
  }

  // A problem with the defaults is the models file's when there is one (it may name them, and it
  // lists the models they could name).
  const where = sources.modelsFile ? `GERTY_MODELS_FILE ${sources.modelsFile}: ` : '';
  const named = (
    kind: 'embedding' | 'completion' | `${TaskName} task`,
    name: string,
    does: (m: ModelDefinition) => boolean,
  ): ModelDefinition => {
    const model = models.get(name);
    const fitting = `${kind === 'embedding' ? 'embedding' : 'completion'} models: ${[...models.values()]
      .filter(does)
      .map((m) => m.name)
      .join(', ')}`;
    if (!model)
      throw new Error(
        `${where}default ${kind} model "${name}": no model named "${name}" is configured (${fitting})`,
      );
    if (!does(model)) {
      throw new Error(
        `${where}default ${kind} model "${name}" does not ${kind === 'embedding' ? 'embed' : 'complete'} (${fitting})`,
      );
    }
    return model;
  };
  const embedding = named('embedding', defaultEmbeddingModel, (m) => m.embeds);
  named('completion', defaultCompletionModel, (m) => m.completes);
  for (const [task, name] of taskModels) named(`${task} task`, name, (m) => m.completes);
  if (embedding.provider === 'openai') {
    if (embedding.dimensions === undefined) {
      // What it embeds is stored: every answer is checked against the store's width.
      models.set(embedding.name, { ...embedding, dimensions: sources.embeddingDimensions });
    } else if (embedding.dimensions !== sources.embeddingDimensions) {
      throw new Error(
        `${where}default embedding model "${defaultEmbeddingModel}" makes ${embedding.dimensions}-d vectors but the store holds ${sources.embeddingDimensions}-d (EMBEDDING_DIMENSIONS)`,
      );
    }
  }
  return { models, defaultEmbeddingModel, defaultCompletionModel, taskModels };
}
