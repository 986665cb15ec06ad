import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { GertyClient, type EmbeddedTexts, type GertyCallOptions } from '@engram/gerty-client';
import type { ExtractedFacts, SummarizeRequest, TaskRequest } from '@engram/prompts';
import { COMPACTOR_CONFIG, type CompactorConfig } from '../compactor.config';

/** Facts as Gerty's extract_facts task answers them. */
export type ExtractedFact = ExtractedFacts['facts'][number];

/** A line of transcript as extract_facts is given it (times as ISO text). */
export type FactSourceLine = TaskRequest<'extract_facts'>['messages'][number];

export interface WrittenSummary {
  readonly text: string;
  /** The model that wrote it, as Gerty names it (stored beside the summary). */
  readonly model: string;
}

/**
 * Gerty as the compactor uses it: summaries written by its `summarize` task, facts by
 * `extract_facts` and their vectors by `embed`, whichever model answers. Every call is a
 * consumer's work: when Gerty cannot answer (down, busy, too slow) the work waits, it never fails.
 */
@Injectable()
export class CompactorGertyGateway implements OnModuleInit {
  constructor(
    private readonly gerty: GertyClient,
    @Inject(COMPACTOR_CONFIG) private readonly config: CompactorConfig,
  ) {}

  onModuleInit(): void {
    // The consumers pause on Gerty's failures until readiness passes again.
    this.gerty.registerReadiness();
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
    const { output, model } = await this.gerty.complete('summarize', input, this.callOptions(tenantId));
    const text = output.trim();
    if (!text) throw new Error(`gerty's model ${model} wrote an empty summary`);
    return { text, model };
  }

  async extractFacts(
    tenantId: string,
    messages: readonly FactSourceLine[],
    userName?: string,
    language?: string,
  ): Promise<ExtractedFact[]> {
    const { output } = await this.gerty.complete(
      'extract_facts',
      { messages: [...messages], ...(userName && { userName }), ...(language && { language }) },
      this.callOptions(tenantId),
    );
    return output.facts;
  }

  async embed(tenantId: string, texts: readonly string[]): Promise<EmbeddedTexts> {
    if (texts.length === 0) return { vectors: [], model: '', dimensions: 0 };
    return this.gerty.embed(texts, this.callOptions(tenantId));
  }

  private callOptions(tenantId: string): GertyCallOptions {
    return { tenantId, timeoutMs: this.config.GERTY_TIMEOUT_MS, asDependency: true };
  }
}
