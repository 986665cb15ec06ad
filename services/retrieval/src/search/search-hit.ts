import { timestampFromDate, type MessageInitShape, type SearchHitSchema } from '@engram/contracts';
import type { PlacedItem } from '@engram/search';

export type SearchHitInit = MessageInitShape<typeof SearchHitSchema>;

/**
 * A returned item as a SearchHit: content, provenance and last access from the store, the
 * ranking's signals when it ranked (a recalled item or an unranked expansion has none, and scores 0).
 */
export function toSearchHit({ kind, id, ranked, expandedFrom, item }: PlacedItem): SearchHitInit {
  const s = ranked?.signals;
  return {
    id,
    kind,
    content: item.content,
    score: s?.fused ?? 0,
    signals: s
      ? {
          fulltext: s.fulltext,
          semantic: s.semantic,
          temporal: s.temporal,
          importance: s.importance,
          timeMatch: s.timeMatch,
          fused: s.fused,
        }
      : {},
    createdAt: timestampFromDate(item.created_at),
    ...(item.last_accessed_at && { lastAccessedAt: timestampFromDate(item.last_accessed_at) }),
    provenance: {
      agent: item.agent,
      conversationId: item.conversation_id ?? '',
      channel: item.channel ?? '',
      role: item.role ?? '',
      author: item.author ?? '',
      depth: item.depth ?? 0,
      sourceMessageIds: (item.source_message_ids ?? []).map(String),
    },
    expandedFrom,
  };
}
