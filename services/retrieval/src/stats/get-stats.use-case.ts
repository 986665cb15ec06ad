import { Injectable } from '@nestjs/common';
import type { MessageInitShape, StatsRequest, StatsResponseSchema } from '@engram/contracts';
import { TenantTransactions } from '@engram/store';
import { QueueStatsReader } from './queue-stats.reader';
import { StatsRepository } from './stats.repository';

type StatsResponseInit = MessageInitShape<typeof StatsResponseSchema>;

/**
 * mem.rpc.stats.get (memory_stats): how much of a tenant's memory (or one agent's) is stored, embedded,
 * summarised and distilled, and how the workers' queues stand. Store counts and queue
 * state are read at the same time.
 */
@Injectable()
export class GetStatsUseCase {
  constructor(
    private readonly transactions: TenantTransactions,
    private readonly store: StatsRepository,
    private readonly queues: QueueStatsReader,
  ) {}

  async get(tenantId: string, request: StatsRequest): Promise<StatsResponseInit> {
    const agent = request.agent === '' ? null : request.agent;
    const [store, queues] = await Promise.all([
      this.transactions.run(tenantId, (manager) => this.store.read(manager, agent)),
      this.queues.read(),
    ]);
    return {
      messages: store.messages,
      messagesEmbedded: store.messagesEmbedded,
      embeddingCoverage: store.messages === 0n ? 1 : Number(store.messagesEmbedded) / Number(store.messages),
      queues: queues.queues.map((q) => ({
        name: q.queue,
        pending: BigInt(q.pending),
        inFlight: BigInt(q.inFlight),
        failed: BigInt(q.failed),
      })),
      unsummarisedByConversation: store.unsummarisedByConversation,
      conversationsCompacted: store.conversationsCompacted,
      summaryTreeDepth: store.summaryTreeLevels,
      factsByCategory: store.factsByCategory,
      deadLetters: BigInt(queues.deadLetters),
    };
  }
}
