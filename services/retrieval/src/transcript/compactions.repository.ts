import { Injectable } from '@nestjs/common';
import type { CompactionRow, EntityManager } from '@engram/store';

/** A compaction as the list reads it. */
export type ListedCompaction = Pick<
  CompactionRow,
  | 'id'
  | 'content'
  | 'first_message_id'
  | 'last_message_id'
  | 'message_count'
  | 'compacted_tokens'
  | 'token_estimate'
  | 'earliest_at'
  | 'latest_at'
  | 'model'
  | 'created_at'
>;

/** Reads of a conversation's session compactions, in the caller's tenant transaction. */
@Injectable()
export class CompactionsRepository {
  /** Every compaction of the conversation, oldest step first (ids grow with the steps). */
  async list(manager: EntityManager, conversationId: string): Promise<ListedCompaction[]> {
    return manager.query(
      `SELECT id::text, content, first_message_id::text, last_message_id::text, message_count,
              compacted_tokens, token_estimate, earliest_at, latest_at, model, created_at
         FROM compactions
        WHERE conversation_id = $1
        ORDER BY id`,
      [conversationId],
    );
  }
}
