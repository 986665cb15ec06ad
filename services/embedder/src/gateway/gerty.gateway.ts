import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Rpcs } from '@engram/contracts';
import { callDependency, DependencyUnavailableError, RpcClient } from '@engram/messaging';
import { ReadinessRegistry } from '@engram/platform';
import { EMBEDDER_CONFIG, type EmbedderConfig } from '../embedder.config';

export interface EmbeddingModel {
  readonly modelId: string;
  readonly dimensions: number;
}

/** NATS carries at most 1 MB: requests and answers are cut to stay well below. */
const MAX_REQUEST_CHARS = 400_000;
/** What a text contributes to its vector is in its first ~8k tokens; no model reads more. */
export const MAX_EMBED_CHARS = 32_000;
const MAX_ANSWER_BYTES = 600_000;
const MODEL_REFRESH_MS = 60_000;

/**
 * Gerty as the embedder sees it: which model makes vectors now, and vectors for
 * texts. When Gerty cannot answer (down, busy, too slow) the failure says a
 * dependency is down: the work waits, it never fails.
 */
@Injectable()
export class GertyGateway implements OnModuleInit {
  private readonly logger = new Logger('GertyGateway');
  private current?: { model: EmbeddingModel; at: number };

  constructor(
    private readonly rpc: RpcClient,
    private readonly readiness: ReadinessRegistry,
    @Inject(EMBEDDER_CONFIG) private readonly config: EmbedderConfig,
  ) {}

  onModuleInit(): void {
    this.readiness.register({
      name: 'gerty',
      check: async () => {
        const model = await this.embeddingModel(true);
        return { embeddingModel: model.modelId, dimensions: model.dimensions };
      },
    });
  }

  /** The model whose vectors the store should hold (Gerty's default embedding model). */
  async embeddingModel(refresh = false): Promise<EmbeddingModel> {
    if (!refresh && this.current && Date.now() - this.current.at < MODEL_REFRESH_MS)
      return this.current.model;
    const listed = await this.call(() => this.rpc.call(Rpcs.gertyModels, {}, { timeoutMs: 5000 }));
    const info = listed.models.find((m) => m.name === listed.defaultEmbeddingModel);
    if (!info) throw new DependencyUnavailableError(`gerty names no default embedding model`);
    if (info.dimensions !== this.config.EMBEDDING_DIMENSIONS) {
      throw new DependencyUnavailableError(
        `gerty's embedding model ${info.modelId} makes ${info.dimensions}-d vectors but the store holds ${this.config.EMBEDDING_DIMENSIONS}-d (EMBEDDING_DIMENSIONS)`,
      );
    }
    const model = { modelId: info.modelId, dimensions: info.dimensions };
    if (this.current && this.current.model.modelId !== model.modelId) {
      this.logger.warn(
        `embedding model changed from ${this.current.model.modelId} to ${model.modelId}: rows will be re-embedded`,
      );
    }
    this.current = { model, at: Date.now() };
    return model;
  }

  /** Vectors for the texts, in order, each made by `model` (or the call fails). */
  async embed(texts: readonly string[], model: EmbeddingModel): Promise<number[][]> {
    const vectors: number[][] = [];
    for (const chunk of chunks(texts, model.dimensions)) {
      const answer = await this.call(() =>
        this.rpc.call(Rpcs.gertyEmbed, { texts: chunk }, { timeoutMs: this.config.GERTY_TIMEOUT_MS }),
      );
      if (answer.model !== model.modelId) {
        // The default changed under us; the sweep re-embeds with the new one.
        throw new DependencyUnavailableError(
          `gerty answered with model ${answer.model}, expected ${model.modelId}`,
        );
      }
      if (answer.vectors.length !== chunk.length || answer.dimensions !== model.dimensions) {
        throw new Error(
          `gerty returned ${answer.vectors.length} vectors of ${answer.dimensions} for ${chunk.length} texts`,
        );
      }
      for (const v of answer.vectors) vectors.push(v.values);
    }
    return vectors;
  }

  /** A one-sentence, past-tense description of a tool call. */
  async describeToolCall(toolName: string, toolArgs: unknown): Promise<string> {
    const answer = await this.call(() =>
      this.rpc.call(
        Rpcs.gertyComplete,
        { task: 'describe_tool_call', taskInput: { toolName, toolArgs: (toolArgs ?? null) as never } },
        { timeoutMs: this.config.GERTY_TIMEOUT_MS },
      ),
    );
    const sentence = answer.text.replace(/\s+/g, ' ').trim();
    if (!sentence) throw new Error(`gerty's model ${answer.model} described ${toolName} with an empty text`);
    return sentence.length > 500 ? `${sentence.slice(0, 497)}...` : sentence;
  }

  private call<T>(request: () => Promise<T>): Promise<T> {
    return callDependency('gerty', request);
  }
}

function* chunks(texts: readonly string[], dimensions: number): Generator<string[]> {
  const maxTexts = Math.max(1, Math.min(512, Math.floor(MAX_ANSWER_BYTES / (dimensions * 12))));
  let chunk: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (
      chunk.length > 0 &&
      (chunk.length >= maxTexts || chars + Math.min(text.length, MAX_EMBED_CHARS) > MAX_REQUEST_CHARS)
    ) {
      yield chunk;
      chunk = [];
      chars = 0;
    }
    const clipped = text.length > MAX_EMBED_CHARS ? text.slice(0, MAX_EMBED_CHARS) : text;
    chunk.push(clipped);
    chars += clipped.length;
  }
  if (chunk.length > 0) yield chunk;
}
