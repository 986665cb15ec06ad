import { Rpcs, type Fact } from '@engram/contracts';
import { mem0MemoryOf, type Mem0Memory } from '@engram/memory-core';
import type { NatsConnection } from '@nats-io/transport-node';
import { callRpc } from '@engram/messaging';
import { withNats } from './engram-rpc';
import type { Progress } from './progress';
import { listConversations } from './transcript-export';

/**
 * Engram's facts in force as mem0's get_all answer (`{"results": [...]}`, each memory as the
 * mem0-compatible API answers it: memory-core's mem0MemoryOf), so that `engram import --format mem0` of the file
 * brings the same memories to another tenant: text, owner, run, category, metadata and time.
 */

/** Facts asked for at once (facts.list's most). */
const FACTS_PAGE = 1000;

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
export function exportMem0(options: Mem0ExportOptions): Promise<{ results: Mem0Memory[] }> {
  return withNats(async (nc) => {
    const call = { tenantId: options.tenantId, timeoutMs: 30_000 };
    const facts = await factsInForce(nc, options, call);
    const conversations = await listConversations(
      nc,
      { tenantId: options.tenantId, agent: options.agent },
      call,
    );
    const sessions = new Map(conversations.map((c) => [c.id, c.sessionKey]));
    return { results: facts.map((f) => mem0MemoryOf(f, { runId: sessions.get(f.conversationId) })) };
  }, options.natsUrl);
}
