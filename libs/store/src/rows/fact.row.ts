import type { FactCategory, FactLifetime } from '@engram/memory-core';

/** What made a fact: a [MEMORY:] tag, the compactor's extraction, a save, or an update. */
export type FactOrigin = 'tag' | 'extracted' | 'saved' | 'updated';

/**
 * A row of `facts` (docs/GLOSSARY.md "Fact"), as factColumns selects it: bigint ids are
 * strings, times Dates. Open while validTo is null; in force while open and not expired
 * (libs/store fact-rules).
 */
export interface FactRow {
  readonly id: string;
  readonly tenantId: string;
  readonly agent: string;
  readonly content: string;
  readonly category: FactCategory;
  readonly lifetime: FactLifetime;
  readonly importance: number;
  readonly origin: FactOrigin;
  /** Unique per tenant: the natural key of what produced it, so a retried write finds it. */
  readonly originKey: string;
  readonly conversationId: string | null;
  readonly sourceMessageIds: readonly string[];
  readonly validFrom: Date;
  /** When it was superseded or forgotten; null while open. */
  readonly validTo: Date | null;
  /** The version that replaced it; null when open or forgotten. */
  readonly supersededBy: string | null;
  /** Why it was forgotten or superseded, when the caller said. */
  readonly forgetReason: string | null;
  /** When it stops being served; null for a sticky fact. */
  readonly expiresAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** The caller's JSON object ({} for none). */
  readonly metadata: Record<string, unknown>;
  /** The idempotency key it was saved with, carried by every version; null for none. */
  readonly saveKey: string | null;
  /** The text-search configuration it was indexed with. */
  readonly language: string;
}

/**
 * The select list of a whole FactRow from `facts` as `alias`: every column under its FactRow
 * name, so a query's rows are FactRows as the driver answers them.
 */
export function factColumns(alias: string): string {
  const f = alias;
  return `${f}.id::text AS id, ${f}.tenant_id AS "tenantId", ${f}.agent, ${f}.content, ${f}.category, ${f}.lifetime,
          ${f}.importance, ${f}.origin, ${f}.origin_key AS "originKey", ${f}.conversation_id::text AS "conversationId",
          ${f}.source_message_ids::text[] AS "sourceMessageIds", ${f}.valid_from AS "validFrom", ${f}.valid_to AS "validTo",
          ${f}.superseded_by::text AS "supersededBy", ${f}.forget_reason AS "forgetReason", ${f}.expires_at AS "expiresAt",
          ${f}.created_at AS "createdAt", ${f}.updated_at AS "updatedAt", ${f}.metadata, ${f}.save_key AS "saveKey",
          ${f}.language::text AS language`;
}
