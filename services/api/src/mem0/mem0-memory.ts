import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { FactVersion } from '@engram/contracts';

const iso = (at: Timestamp | undefined) => (at ? timestampDate(at).toISOString() : null);

/** One entry of a memory's history as mem0 answers it: ADD, UPDATE or DELETE with old and new text. */
export function historyEntryOf(memoryId: string, version: FactVersion, index: number) {
  const at = iso(version.at) ?? iso(version.fact?.createdAt);
  return {
    id: `${version.fact?.id ?? memoryId}:${index}`,
    memory_id: memoryId,
    input: [],
    old_memory: version.oldContent === '' ? null : version.oldContent,
    new_memory: version.newContent === '' ? null : version.newContent,
    event: version.event,
    user_id: version.fact?.agent ?? null,
    categories: version.fact ? [version.fact.category] : [],
    created_at: at,
    updated_at: at,
  };
}

/** Engram's fused score, in [0, 1] as mem0 clients expect (order kept). */
export const mem0Score = (score: number) => Math.min(1, Math.max(0, score));
