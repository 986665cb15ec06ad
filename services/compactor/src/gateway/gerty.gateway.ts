import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { JsonObject } from '@bufbuild/protobuf';
import { Rpcs } from '@engram/contracts';
import { DependencyUnavailableError, RpcClient, RpcError } from '@engram/messaging';
import { ReadinessRegistry } from '@engram/platform';
import type { SummarizeRequest } from '@engram/prompts';
import { COMPACTOR_CONFIG, type CompactorConfig } from '../compactor.config';

export interface WrittenSummary {
  readonly text: string;
  /** The model that wrote it, as Gerty names it (stored beside the summary). */
  readonly model: string;
}

/**
 * Gerty as the compactor sees it: summaries written by its `summarize` task, whichever
 * model answers. When Gerty cannot answer (down, busy, too slow) the failure says a
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

  async summarize(tenantId: string, input: SummarizeRequest): Promise<WrittenSummary> {
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

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof RpcError && ['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED'].includes(error.code)) {
        throw new DependencyUnavailableError(`gerty: ${error.message}`);
      }
      throw error;
    }
  }
}
