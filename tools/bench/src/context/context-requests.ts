import { SeededRandom } from '../corpus/seeded-random';
import { mixSeed } from '../search/corpus-shape';
import { generateQueries, type QuerySource } from '../search/query-generator';

/** A conversation of the corpus, as far as a context request names it. */
export interface ConversationRef {
  /** conversations.id (the plan's ids are the loaded ones). */
  readonly id: number;
  readonly agent: string;
  readonly sessionKey: string;
}

/** What the requests are drawn from: the corpus plan's tenants, with their conversations. */
export interface ContextRequestSource extends QuerySource {
  readonly tenants: ReadonlyArray<{
    readonly id: string;
    readonly agents: readonly string[];
    readonly conversations: readonly ConversationRef[];
  }>;
}

/** One mem.rpc.context.build of the benchmark (the RPC's fields, plus the tenant it goes to). */
export interface ContextRequest {
  readonly tenantId: string;
  readonly agent: string;
  /** Exactly one of conversationId and sessionKey, as a runtime names its conversation. */
  readonly conversationId?: string;
  readonly sessionKey?: string;
  readonly currentMessage: string;
  /** The moment the prompt is for (its asOf). */
  readonly asOf: Date;
}

/** Share of the requests that name their conversation by session key (the rest by id). */
export const SESSION_KEY_SHARE = 0.5;

/**
 * `count` context builds as a runtime asks them: the current message is a query of the search
 * benchmark (2–8 words of the corpus's own distribution, to a random tenant), sent in a random
 * conversation of that tenant, for that conversation's agent, by session key or by id. All at
 * the same moment `asOf` (the corpus's end, on the day whose notes are seeded). Deterministic.
 */
export function generateContextRequests(
  count: number,
  source: ContextRequestSource,
  asOf: Date,
  seed: number,
): ContextRequest[] {
  const byId = new Map(source.tenants.map((t) => [t.id, t]));
  const random = new SeededRandom(mixSeed(seed, 0xc0_47e7));
  return generateQueries(count, source, seed).map((q): ContextRequest => {
    const tenant = byId.get(q.tenantId)!;
    if (tenant.conversations.length === 0)
      throw new Error(`generateContextRequests: tenant ${tenant.id} has no conversations`);
    const conversation = random.pick(tenant.conversations);
    const ref = random.chance(SESSION_KEY_SHARE)
      ? { sessionKey: conversation.sessionKey }
      : { conversationId: String(conversation.id) };
    return { tenantId: tenant.id, agent: conversation.agent, ...ref, currentMessage: q.text, asOf };
  });
}

/** The distinct (tenant, agent) pairs the requests ask for, in first-asked order: the agents to seed. */
export function agentsAsked(requests: readonly ContextRequest[]): Array<{ tenantId: string; agent: string }> {
  const seen = new Set<string>();
  const out: Array<{ tenantId: string; agent: string }> = [];
  for (const r of requests) {
    const key = `${r.tenantId}\u0000${r.agent}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ tenantId: r.tenantId, agent: r.agent });
  }
  return out;
}
