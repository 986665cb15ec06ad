import { createHash } from 'node:crypto';
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { Rpcs, type Fact } from '@engram/contracts';
import type { NatsConnection } from '@nats-io/transport-node';
import { callRpc } from '@engram/messaging';
import { withNats } from './engram-rpc';
import { MEM0_CATEGORIES_KEY } from './mem0-file';
import type { Progress } from './progress';
import { listConversations } from './transcript-export';

/**
 * Engram's facts in force as mem0's get_all answer (`{"results": [...]}`, the memories shaped as
 * the mem0-compatible API answers them), so that `engram import --format mem0` of the file
 * brings the same memories to another tenant: text, owner, run, category, metadata and time.
 */

/** Facts asked for at once (facts.list's most). */
const FACTS_PAGE = 1000;

export interface Mem0ExportedMemory {
  readonly id: string;
  readonly memory: string;
  readonly hash: string;
  readonly user_id: string;
  readonly agent_id: null;
  readonly run_id: string | null;
  readonly metadata: JsonObject | null;
  readonly categories: readonly string[];
  readonly created_at: string | null;
  readonly updated_at: string | null;
  readonly expiration_date: string | null;
  readonly immutable: false;
}

const iso = (at: Timestamp | undefined) => (at ? timestampDate(at).toISOString() : null);

/**
 * mem0's categories of a fact: the mem0 categories its metadata keeps, with its own category
 * unless that is only the default an import gave a memory none of whose categories was Engram's.
 */
export function mem0Categories(fact: Pick<Fact, 'category' | 'metadata'>): string[] {
  const kept: JsonValue = fact.metadata?.[MEM0_CATEGORIES_KEY] ?? [];
  const others = Array.isArray(kept) ? kept.filter((c): c is string => typeof c === 'string') : [];
  if (others.length > 0 && fact.category === 'general') return others;
  return [fact.category, ...others];
}

/** A fact as a mem0 memory of its agent (the user), in the run its conversation is. */
export function mem0MemoryOf(fact: Fact, runId: string | null): Mem0ExportedMemory {
  const { [MEM0_CATEGORIES_KEY]: _categories, ...metadata } = fact.metadata ?? {};
  return {
    // The memory's id is its first version's, as the mem0 API answers it: stable across updates.
    id: fact.firstId || fact.id,
    memory: fact.content,
    hash: createHash('md5').update(fact.content).digest('hex'),
    user_id: fact.agent,
    agent_id: null,
    run_id: runId,
    metadata: Object.keys(metadata).length > 0 ? metadata : null,
    categories: mem0Categories(fact),
    created_at: iso(fact.createdAt),
    updated_at: iso(fact.updatedAt) ?? iso(fact.createdAt),
    expiration_date: iso(fact.expiresAt),
    immutable: false,
  };
}

export interface Mem0ExportOptions {
  readonly tenantId: string;
  /** Only this agent's facts. */
  readonly agent?: string;
  readonly natsUrl?: string;
  readonly progress?: Progress;
}

/** Every fact in force of the tenant (or agent), newest first, page by page. */
async function factsInForce(
  nc: NatsConnection,
  options: Mem0ExportOptions,
  call: { tenantId: string; timeoutMs: number },
): Promise<Fact[]> {
  const facts: Fact[] = [];
  try {
    for (;;) {
      const page = await callRpc(
        nc,
        Rpcs.factsList,
        { agents: options.agent ? [options.agent] : [], limit: FACTS_PAGE, offset: facts.length },
        call,
      );
      if (facts.length === 0) options.progress?.start(Number(page.total));
      facts.push(...page.facts);
      options.progress?.increment(page.facts.length);
      if (page.facts.length === 0 || BigInt(facts.length) >= page.total) return facts;
    }
  } finally {
    options.progress?.stop();
  }
}

/** The tenant's (or agent's) facts in force as mem0's `{"results": [...]}`, newest first. */
export function exportMem0(options: Mem0ExportOptions): Promise<{ results: Mem0ExportedMemory[] }> {
  return withNats(async (nc) => {
    const call = { tenantId: options.tenantId, timeoutMs: 30_000 };
    const facts = await factsInForce(nc, options, call);
    const conversations = await listConversations(
      nc,
      { tenantId: options.tenantId, agent: options.agent },
      call,
    );
    const sessions = new Map(conversations.map((c) => [c.id, c.sessionKey]));
    return { results: facts.map((f) => mem0MemoryOf(f, sessions.get(f.conversationId) ?? null)) };
  }, options.natsUrl);
}
