import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { GertyClient } from '@engram/gerty-client';
import { LOCAL_EMBEDDING_MODEL_ID, LocalEmbedder } from '@engram/local-model';
import { errorMessage, retryDelayMs } from '@engram/messaging';
import type { QueryVector } from '@engram/search';
import { RETRIEVAL_CONFIG, type RetrievalConfig } from '../retrieval.config';

/** How often Gerty is asked again which model embeds by default (its models change when it restarts). */
export const QUERY_MODEL_REFRESH_MS = 30_000;
/** After a listing fails, the next is asked about this soon (retryDelayMs: doubling, ±20 %), up to QUERY_MODEL_REFRESH_MS. */
export const QUERY_MODEL_RETRY_MS = 1_000;

/**
 * The query's vector, or why there is none: a search then answers from full text, so Gerty
 * down or late (SEARCH_EMBED_TIMEOUT_MS) is a reason, never a failure.
 *
 * Gerty says which model embeds by default (gerty.rpc.models.list, asked before the first query and
 * every QUERY_MODEL_REFRESH_MS). When it is the built-in model, the vector is made here, by the
 * same LocalEmbedder Gerty runs (deterministic: the same text gives the same vector in every
 * process), and only when the search gets as far as needing it: no hop to Gerty and back per
 * search, and none at all for a tenant that does not exist. Any other model (an OpenAI-compatible
 * endpoint) is asked through Gerty per query, as before. A listing that fails changes nothing:
 * until Gerty has named its model, every vector comes from Gerty, so a failed listing is asked
 * again within a second or two (a retrieval started while Gerty was busy or restarting would
 * otherwise wait for Gerty's vector on every search until the next refresh).
 */
@Injectable()
export class QueryVectorGateway implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(QueryVectorGateway.name);
  /** The built-in model, when Gerty's default embedding model is it; null: ask Gerty. */
  private local: LocalEmbedder | null = null;
  private learned: Promise<void> | null = null;
  /** Gerty was asked once (whatever it answered): searches no longer wait for the listing. */
  private asked = false;
  private refresher?: NodeJS.Timeout;
  private retry?: NodeJS.Timeout;
  /** Listings that failed in a row (what the next one waits on). */
  private failedListings = 0;
  private stopped = false;

  constructor(
    private readonly gerty: GertyClient,
    @Inject(RETRIEVAL_CONFIG) private readonly config: RetrievalConfig,
  ) {}

  /** Before the RPCs are answered: loading the built-in model (about 1 s) would stall the first searches. */
  async onApplicationBootstrap(): Promise<void> {
    await this.learnModel();
    this.refresher = setInterval(() => void this.learnModel(), QUERY_MODEL_REFRESH_MS);
    this.refresher.unref();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearInterval(this.refresher);
    clearTimeout(this.retry);
  }

  embed(text: string, tenantId: string): PromiseLike<QueryVector> {
    const local = this.local;
    if (local) return lazily(() => this.localVector(local, text));
    return this.fromGerty(text, tenantId);
  }

  private localVector(embedder: LocalEmbedder, text: string): QueryVector {
    return { vector: Array.from(embedder.embed([text])[0]!), model: embedder.modelId };
  }

  private async fromGerty(text: string, tenantId: string): Promise<QueryVector> {
    if (!this.asked) {
      await this.learnModel();
      if (this.local) return this.localVector(this.local, text);
    }
    try {
      const { vectors, model } = await this.gerty.embed([text], {
        tenantId,
        timeoutMs: this.config.SEARCH_EMBED_TIMEOUT_MS,
      });
      const values = vectors[0]!;
      if (values.length !== this.config.EMBEDDING_DIMENSIONS) {
        return {
          vector: null,
          reason: `gerty's model ${model} answered ${values.length}-d vectors; the store holds ${this.config.EMBEDDING_DIMENSIONS}-d`,
        };
      }
      return { vector: values, model };
    } catch (error) {
      return { vector: null, reason: `no query vector (gerty: ${errorMessage(error)})` };
    }
  }

  /** Asks Gerty which model embeds by default (one listing at a time; a failed one changes nothing). */
  private learnModel(): Promise<void> {
    this.learned ??= this.listModels().finally(() => {
      this.asked = true;
      this.learned = null;
    });
    return this.learned;
  }

  private async listModels(): Promise<void> {
    try {
      const listed = await this.gerty.models({ timeoutMs: this.config.SEARCH_EMBED_TIMEOUT_MS });
      this.failedListings = 0;
      const model = listed.models.find((m) => m.name === listed.defaultEmbeddingModel);
      const builtin =
        model?.provider === 'builtin' &&
        model.modelId === LOCAL_EMBEDDING_MODEL_ID &&
        model.dimensions === this.config.EMBEDDING_DIMENSIONS;
      if (builtin === (this.local !== null)) return;
      this.local = builtin ? LocalEmbedder.load() : null;
      this.logger.log(
        builtin
          ? `gerty's default embedding model is the built-in one (${LOCAL_EMBEDDING_MODEL_ID}): query vectors are made in this process`
          : `gerty's default embedding model is ${model?.modelId ?? listed.defaultEmbeddingModel}: query vectors come from gerty`,
      );
    } catch (error) {
      const delayMs = retryDelayMs(++this.failedListings, {
        baseDelayMs: QUERY_MODEL_RETRY_MS,
        maxDelayMs: QUERY_MODEL_REFRESH_MS,
      });
      this.logger.warn(
        `gerty did not list its models (query vectors come from it meanwhile; asked again in ${delayMs} ms): ${errorMessage(error)}`,
      );
      // (Not once the process stops: a listing still in flight then must not schedule another.)
      if (this.stopped) return;
      clearTimeout(this.retry);
      this.retry = setTimeout(() => void this.learnModel(), delayMs);
      this.retry.unref();
    }
  }
}

/** A promise of `make()` that calls it only once awaited (then at most once). */
function lazily<T>(make: () => T): PromiseLike<T> {
  let made: Promise<T> | undefined;
  return {
    then: (onFulfilled, onRejected) => (made ??= Promise.resolve().then(make)).then(onFulfilled, onRejected),
  };
}
