import { createHash } from 'node:crypto';
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { Fact } from '@engram/contracts';

/** Where a fact's metadata keeps the mem0 categories that are not Engram's (an import puts them there). */
export const MEM0_CATEGORIES_KEY = 'mem0_categories';

/** A memory as mem0's API answers it (snake_case; what its clients read). */
export interface Mem0Memory {
  readonly id: string;
  readonly memory: string;
  readonly hash: string;
  readonly user_id: string | null;
  readonly agent_id: string | null;
  readonly run_id: string | null;
  readonly metadata: JsonObject | null;
  readonly categories: readonly string[];
  readonly created_at: string;
  readonly updated_at: string;
  readonly expiration_date: string | null;
  readonly immutable: false;
  readonly score?: number;
}

/** The mem0 ids a request named, echoed back on its memories as the caller gave them. */
export interface Mem0Owner {
  readonly userId?: string;
  readonly agentId?: string;
  readonly runId?: string;
}

const iso = (at: Timestamp | undefined) => (at ? timestampDate(at).toISOString() : null);

/**
 * mem0's categories of a fact: its own category, then the mem0 categories its metadata keeps;
 * its own alone is dropped when it is only the default an import gave a memory none of whose
 * categories was Engram's.
 */
export function mem0Categories(fact: Pick<Fact, 'category' | 'metadata'>): string[] {
  const kept: JsonValue = fact.metadata?.[MEM0_CATEGORIES_KEY] ?? [];
  const others = Array.isArray(kept) ? kept.filter((c): c is string => typeof c === 'string') : [];
  if (others.length > 0 && fact.category === 'general') return others;
  return [fact.category, ...others];
}

/**
 * A fact as a mem0 memory. Its id is the memory's, its chain's first version: stable across
 * updates, so an app that kept it finds the memory's current text, while the versions stay in
 * its history. created_at is when this version was stored. The owner is echoed as the caller
 * named it when the request named one, else the Engram agent is the user.
 */
export function mem0MemoryOf(fact: Fact, owner: Mem0Owner = {}): Mem0Memory {
  const { [MEM0_CATEGORIES_KEY]: _categories, ...metadata } = fact.metadata ?? {};
  return {
    id: fact.firstId || fact.id,
    memory: fact.content,
    hash: createHash('md5').update(fact.content).digest('hex'),
    user_id: owner.userId ?? (owner.agentId ? null : fact.agent),
    agent_id: owner.agentId ?? null,
    run_id: owner.runId ?? null,
    metadata: Object.keys(metadata).length > 0 ? metadata : null,
    categories: mem0Categories(fact),
    created_at: iso(fact.createdAt)!,
    updated_at: iso(fact.updatedAt) ?? iso(fact.createdAt)!,
    expiration_date: iso(fact.expiresAt),
    immutable: false,
  };
}
