import { Controller } from '@nestjs/common';
import { Consumers, isRowId, type MessageStored } from '@engram/contracts';
import { ConsumeEventBatches, type Delivery } from '@engram/messaging';
import { runPerConversation } from '../conversation-runs';
import { CompactSessionUseCase } from './compact-session.use-case';

/** compactor-sessions (mem.message.stored): a conversation that grew may be past its compaction threshold (a step per run, in rounds). */
@Controller()
export class CompactorSessionsConsumer {
  constructor(private readonly compactSession: CompactSessionUseCase) {}

  @ConsumeEventBatches(Consumers.compactorSessions)
  handle(deliveries: Delivery<MessageStored>[]): Promise<void> {
    return runPerConversation(
      deliveries,
      (d) => {
        // Compaction marks the transcript (memory off only keeps its facts from being derived): every tenant's.
        if (!d.message.conversationId) return false;
        if (isRowId(d.message.conversationId)) return true;
        d.reject(`conversation_id is not a row id`, { conversationId: d.message.conversationId });
        return false;
      },
      (trigger) => this.compactSession.compact(trigger),
    );
  }
}
