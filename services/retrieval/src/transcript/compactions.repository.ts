import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@engram/store';

export interface CompactionRow {
  readonly id: string;
  readonly content: string;
  readonly first_message_id: string | null;
  readonly last_message_id: string;
  readonly message_count: number | null;
  readonly compacted_tokens: number | null;
  readonly token_estimate: number | null;
  readonly earliest_at: Date | null;
  readonly latest_at: Date | null;
  readonly model: string;
  readonly created_at: Date;
}

/** Reads of a conversation's session compactions, in the caller's tenant transaction. */
@Injectable()
export class CompactionsRepository {
  /** Every compaction of the conversation, oldest step first (ids grow with the steps). */
  async list(manager: EntityManager, conversationId: string): Promise<CompactionRow[]> {
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
