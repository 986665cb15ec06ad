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
  readonly metadata: null;
  readonly categories: readonly string[];
  readonly created_at: string;
  readonly updated_at: string;
  readonly expiration_date: string | null;
  readonly immutable: false;
  readonly score?: number;
}

const iso = (at: Timestamp | undefined) => (at ? timestampDate(at).toISOString() : null);

/**
 * A fact as a mem0 memory. Its id is the fact's: after an update the memory has the id of its
 * new version, and every earlier id still finds it. The owner is echoed as the caller named it
 * when the request named one, else the Engram agent is the user.
 */
export function memoryOf(fact: Fact, echo: Mem0Scope['echo'] = {}): Mem0Memory {
  return {
    id: fact.id,
    memory: fact.content,
    hash: createHash('md5').update(fact.content).digest('hex'),
    user_id: echo.userId ?? (echo.agentId ? null : fact.agent),
    agent_id: echo.agentId ?? null,
    run_id: echo.runId ?? null,
    metadata: null,
    categories: [fact.category],
    created_at: iso(fact.createdAt)!,
    updated_at: iso(fact.updatedAt) ?? iso(fact.createdAt)!,
    expiration_date: iso(fact.expiresAt),
    immutable: false,
  };
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
