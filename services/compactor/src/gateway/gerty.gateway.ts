import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { toJson, type JsonObject } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { Rpcs } from '@engram/contracts';
import { callDependency, RpcClient } from '@engram/messaging';
import { ReadinessRegistry } from '@engram/platform';
import { extractedFacts, type ExtractedFacts, type SummarizeRequest } from '@engram/prompts';
import { COMPACTOR_CONFIG, type CompactorConfig } from '../compactor.config';

/** Facts as Gerty's extract_facts task answers them. */
export type ExtractedFact = ExtractedFacts['facts'][number];

/** A line of transcript as extract_facts is given it (times as ISO text). */
export interface FactSourceLine {
  readonly id: string;
  readonly at: string;
  readonly role: 'user' | 'assistant' | 'system' | 'tool';
  readonly author?: string;
  readonly text: string;
}

/** Vectors of texts, in their order, and the model that made them. */
export interface EmbeddedTexts {
  readonly vectors: ReadonlyArray<readonly number[]>;
  readonly model: string;
}

export interface WrittenSummary {
  readonly text: string;
  /** The model that wrote it, as Gerty names it (stored beside the summary). */
  readonly model: string;
}

/**
 * Gerty as the compactor sees it: summaries written by its `summarize` task, facts by
 * `extract_facts` and their vectors by `embed`, whichever model answers. When Gerty cannot answer (down, busy, too slow) the failure says a
 * dependency is down: the work waits, it never fails.
 */
@Injectable()
export class GertyGateway implements OnModuleInit {
  constructor(
    private readonly rpc: RpcClient,
    private readonly readiness: ReadinessRegistry,
    @Inject(COMPACTOR_CONFIG) private readonly config: CompactorConfig,
  ) {}

  onModuleInit(): void {
    // The consumer pauses on Gerty's failures until readiness passes again.
    this.readiness.register({
      name: 'gerty',
      check: async () => {
        const listed = await this.call(() => this.rpc.call(Rpcs.gertyModels, {}, { timeoutMs: 5000 }));
        return { completionModel: listed.defaultCompletionModel };
      },
    });
  }

  /** A node of the summary tree. */
  summarize(tenantId: string, input: SummarizeRequest): Promise<WrittenSummary> {
    return this.writeSummary(tenantId, input);
  }

  /** A session compaction's rolling summary: the same task, asked apart so the two uses can be told apart (metrics, tests). */
  summarizeSession(tenantId: string, input: SummarizeRequest): Promise<WrittenSummary> {
    return this.writeSummary(tenantId, input);
  }

  private async writeSummary(tenantId: string, input: SummarizeRequest): Promise<WrittenSummary> {
    const answer = await this.call(() =>
      this.rpc.call(
        Rpcs.gertyComplete,
        { task: 'summarize', taskInput: input as unknown as JsonObject, tenantId },
        { timeoutMs: this.config.GERTY_TIMEOUT_MS },
      ),
    );
    const text = answer.text.trim();
    if (!text) throw new Error(`gerty's model ${answer.model} wrote an empty summary`);
    return { text, model: answer.model };
  }

  async extractFacts(
    tenantId: string,
    messages: readonly FactSourceLine[],
    userName?: string,
  ): Promise<ExtractedFact[]> {
    const answer = await this.call(() =>
      this.rpc.call(
        Rpcs.gertyComplete,
        {
          task: 'extract_facts',
          taskInput: { messages, ...(userName && { userName }) } as unknown as JsonObject,
          tenantId,
        },
        { timeoutMs: this.config.GERTY_TIMEOUT_MS },
      ),
    );
    // Gerty checked the shape already; parsed again so the types hold here.
    const parsed = extractedFacts.safeParse(answer.json ? toJson(ValueSchema, answer.json) : undefined);
    if (!parsed.success) throw new Error(`gerty's model ${answer.model} answered facts of another shape`);
    return parsed.data.facts;
  }

  async embed(tenantId: string, texts: readonly string[]): Promise<EmbeddedTexts> {
    if (texts.length === 0) return { vectors: [], model: '' };
    const answer = await this.call(() =>
      this.rpc.call(
        Rpcs.gertyEmbed,
        { texts: [...texts], tenantId },
        { timeoutMs: this.config.GERTY_TIMEOUT_MS },
      ),
    );
    if (answer.vectors.length !== texts.length)
      throw new Error(
        `gerty's model ${answer.model} answered ${answer.vectors.length} vectors for ${texts.length} texts`,
      );
    return { vectors: answer.vectors.map((v) => v.values), model: answer.model };
  }

  private call<T>(request: () => Promise<T>): Promise<T> {
    return callDependency('gerty', request);
  }
}
