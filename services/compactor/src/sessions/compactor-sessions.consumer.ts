import { Controller } from '@nestjs/common';
import { Consumers, isRowId, tenantOfSubject, type MessageStored } from '@engram/contracts';
import { ConsumeEventBatches, errorMessage, isDependencyFailure, type Delivery } from '@engram/messaging';
import { CompactSessionUseCase } from './compact-session.use-case';

/** compactor-sessions (mem.message.stored): a conversation that grew may be past its compaction threshold (one run per conversation per batch). */
@Controller()
export class CompactorSessionsConsumer {
  constructor(private readonly compactSession: CompactSessionUseCase) {}

  @ConsumeEventBatches(Consumers.compactorSessions)
  async handle(deliveries: Delivery<MessageStored>[]): Promise<void> {
    const byConversation = new Map<string, Delivery<MessageStored>[]>();
    for (const d of deliveries) {
      // Compaction marks the transcript (memory off only keeps its facts from being derived): every tenant's.
      if (!d.message.conversationId) continue;
      if (!isRowId(d.message.conversationId)) {
        d.reject(`conversation_id is not a row id`, { conversationId: d.message.conversationId });
        continue;
      }
      const key = `${tenantOfSubject(d.subject)}/${d.message.conversationId}`;
      byConversation.set(key, [...(byConversation.get(key) ?? []), d]);
    }
    await Promise.all(
      [...byConversation.values()].map(async (group) => {
        const first = group[0]!;
        try {
          await this.compactSession.execute({
            tenantId: tenantOfSubject(first.subject),
            conversationId: first.message.conversationId,
            traceContext: first.traceContext,
          });
        } catch (error) {
          // One conversation failing holds back only its own events.
          const dependencyDown = isDependencyFailure(error);
          for (const d of group) d.retry(errorMessage(error), { dependencyDown });
        }
      }),
    );
  }
}
