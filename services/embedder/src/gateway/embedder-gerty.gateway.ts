import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { embedRequests, GertyClient, type GertyCallOptions } from '@engram/gerty-client';
import { DependencyUnavailableError } from '@engram/messaging';
import { EMBEDDER_CONFIG, type EmbedderConfig } from '../embedder.config';

export interface EmbeddingModel {
  readonly modelId: string;
  readonly dimensions: number;
}

const MODEL_REFRESH_MS = 60_000;

/**
 * Gerty as the embedder uses it: which model makes vectors now (of the store's width), vectors
 * for texts in requests that fit NATS, and descriptions of tool calls. Every call is a consumer's
 * work: when Gerty cannot answer (down, busy, too slow) the work waits, it never fails.
 */
@Injectable()
export class EmbedderGertyGateway implements OnModuleInit {
  private readonly logger = new Logger(EmbedderGertyGateway.name);
  private current?: { model: EmbeddingModel; at: number };

  constructor(
    private readonly gerty: GertyClient,
    @Inject(EMBEDDER_CONFIG) private readonly config: EmbedderConfig,
  ) {}

  onModuleInit(): void {
    this.gerty.registerReadiness(async () => {
      const model = await this.embeddingModel(true);
      return { embeddingModel: model.modelId, dimensions: model.dimensions };
    });
  }

  /** The model whose vectors the store should hold (Gerty's default embedding model). */
  async embeddingModel(refresh = false): Promise<EmbeddingModel> {
    if (!refresh && this.current && Date.now() - this.current.at < MODEL_REFRESH_MS)
      return this.current.model;
    const listed = await this.gerty.models({ asDependency: true });
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
    for (const chunk of embedRequests(texts, model.dimensions)) {
      const answer = await this.gerty.embed(chunk, this.callOptions());
      if (answer.model !== model.modelId) {
        // The default changed under us; the sweep re-embeds with the new one.
        throw new DependencyUnavailableError(
          `gerty answered with model ${answer.model}, expected ${model.modelId}`,
        );
      }
      if (answer.dimensions !== model.dimensions) {
        throw new Error(
          `gerty returned vectors of ${answer.dimensions} for ${model.modelId}, which makes ${model.dimensions}`,
        );
      }
      vectors.push(...answer.vectors);
    }
    return vectors;
  }

  /** A one-sentence, past-tense description of a tool call. */
  async describeToolCall(toolName: string, toolArgs: unknown): Promise<string> {
    const { output, model } = await this.gerty.complete(
      'describe_tool_call',
      { toolName, toolArgs: toolArgs ?? null },
      this.callOptions(),
    );
    const sentence = output.replace(/\s+/g, ' ').trim();
    if (!sentence) throw new Error(`gerty's model ${model} described ${toolName} with an empty text`);
    return sentence.length > 500 ? `${sentence.slice(0, 497)}...` : sentence;
  }

  private callOptions(): GertyCallOptions {
    return { timeoutMs: this.config.GERTY_TIMEOUT_MS, asDependency: true };
  }
}
