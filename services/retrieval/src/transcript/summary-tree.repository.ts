import { Injectable } from '@nestjs/common';
import type { EntityManager, SummaryRow } from '@engram/store';

/** A node of a conversation's summary tree, with its sources by ordinal. */
export interface SummaryNodeRow extends Pick<
  SummaryRow,
  'id' | 'depth' | 'content' | 'earliestAt' | 'latestAt' | 'messageCount'
> {
  /** Child summaries (a branch's or a root's), by ordinal. */
  readonly children: string[];
  /** Source messages (a leaf's), by ordinal. */
  readonly messageIds: string[];
}

/** Reads of a conversation's summary tree, in the caller's tenant transaction. */
@Injectable()
export class SummaryTreeRepository {
  /** Every summary of the conversation with its sources by ordinal: roots first, each level by start. */
  async nodes(manager: EntityManager, conversationId: string): Promise<SummaryNodeRow[]> {
    return manager.query(
      `SELECT s.id::text, s.depth, s.content, s.earliest_at AS "earliestAt", s.latest_at AS "latestAt",
              s.message_count AS "messageCount",
              coalesce(array_agg(ss.source_id::text ORDER BY ss.ordinal)
                         FILTER (WHERE ss.source_kind = 'summary'), '{}') AS children,
              coalesce(array_agg(ss.source_id::text ORDER BY ss.ordinal)
                         FILTER (WHERE ss.source_kind = 'message'), '{}') AS "messageIds"
         FROM summaries s
         LEFT JOIN summary_sources ss ON ss.summary_id = s.id
        WHERE s.conversation_id = $1
        GROUP BY s.id
        ORDER BY s.depth DESC, s.earliest_at, s.id`,
      [conversationId],
    );
  }
}
