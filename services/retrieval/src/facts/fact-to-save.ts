import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { SaveRequest } from '@engram/contracts';
import { DEFAULT_IMPORTANCE, type FactCategory, type FactLifetime } from '@engram/memory-core';

/** A save request with its defaults filled in. */
export interface FactToSave {
  readonly agent: string;
  /** Trimmed. */
  readonly content: string;
  readonly category: FactCategory;
  readonly lifetime: FactLifetime;
  readonly importance: number;
  readonly conversationId: string | null;
  /** Distinct, in the order given. */
  readonly sourceMessageIds: readonly string[];
  /** The caller's JSON object ({} for none). */
  readonly metadata: Record<string, unknown>;
  /** When it began to hold, when the caller says (an import); null for now. */
  readonly validFrom: Date | null;
  /** When it stopped holding, for a fact saved already closed; null for open. */
  readonly validTo: Date | null;
  /** The caller's idempotency key; null for none. */
  readonly key: string | null;
}

/**
 * Fills in a memory_save request's defaults: category `general`, lifetime `sticky`,
 * importance by category. The request passed its rules (libs/contracts saveRules), so
 * its category and lifetime, trimmed and in lower case, are among the known ones.
 */
export function factToSave(request: SaveRequest): FactToSave {
  const category = (request.category.trim().toLowerCase() || 'general') as FactCategory;
  return {
    agent: request.agent,
    content: request.content.trim(),
    category,
    lifetime: (request.lifetime.trim().toLowerCase() || 'sticky') as FactLifetime,
    importance: request.importance === 0 ? DEFAULT_IMPORTANCE[category] : request.importance,
    conversationId: request.conversationId === '' ? null : request.conversationId,
    sourceMessageIds: [...new Set(request.sourceMessageIds)],
    metadata: request.metadata ?? {},
    validFrom: request.validFrom ? timestampDate(request.validFrom) : null,
    validTo: request.validTo ? timestampDate(request.validTo) : null,
    key: request.key === '' ? null : request.key,
  };
}
