import { createHash } from 'node:crypto';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { Fact, FactVersion } from '@engram/contracts';
import type { Mem0Scope } from './mem0-scope';

/** A memory as mem0's API answers it (snake_case; what its clients read). */
export interface Mem0Memory {
  readonly id: string;
  readonly memory: string;
  readonly hash: string;
  readonly user_id: string | null;
  readonly agent_id: string | null;
  readonly run_id: string | null;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly categories: readonly string[];
  readonly created_at: string;
  readonly updated_at: string;
  readonly expiration_date: string | null;
  readonly immutable: false;
  readonly score?: number;
}

const iso = (at: Timestamp | undefined) => (at ? timestampDate(at).toISOString() : null);

/** What a memory is made from, whether a fact or a search hit. */
interface MemorySource {
  readonly id: string;
  readonly content: string;
  readonly agent: string;
  readonly categories: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly expiresAt: string | null;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/**
 * A memory as mem0 answers it. The owner is echoed as the caller named it when the request named
 * one, else the Engram agent is the user.
 */
function memory(source: MemorySource, echo: Mem0Scope['echo']): Mem0Memory {
  return {
    id: source.id,
    memory: source.content,
    hash: createHash('md5').update(source.content).digest('hex'),
    user_id: echo.userId ?? (echo.agentId ? null : source.agent),
    agent_id: echo.agentId ?? null,
    run_id: echo.runId ?? null,
    metadata: Object.keys(source.metadata).length > 0 ? source.metadata : null,
    categories: source.categories,
    created_at: source.createdAt,
    updated_at: source.updatedAt,
    expiration_date: source.expiresAt,
    immutable: false,
  };
}

/**
 * A fact as a mem0 memory. Its id is the memory's, its chain's first version: stable across
 * updates, so an app that kept it finds the memory's current text, while the versions stay in
 * its history. created_at is when this version was stored.
 */
export function memoryOf(fact: Fact, echo: Mem0Scope['echo'] = {}): Mem0Memory {
  return memory(
    {
      id: fact.firstId || fact.id,
      content: fact.content,
      agent: fact.agent,
      categories: [fact.category],
      createdAt: iso(fact.createdAt)!,
      updatedAt: iso(fact.updatedAt) ?? iso(fact.createdAt)!,
      expiresAt: iso(fact.expiresAt),
      metadata: fact.metadata ?? {},
    },
    echo,
  );
}

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
