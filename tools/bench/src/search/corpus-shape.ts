import { SeededRandom } from '../corpus/seeded-random';
import { zipfWeights } from './zipf';

/**
 * The shape of the search benchmark's corpus (who, how many, when), without any text: cheap,
 * pure and deterministic, so the loader and the query generator agree on tenants, agents and
 * the time span without holding the corpus in memory.
 */

/** Bump when anything the generator writes changes: the cached databases are named after it. */
export const CORPUS_VERSION = 1;

export interface CorpusSpec {
  /** Messages over all tenants. */
  readonly messages: number;
  readonly tenants: number;
  readonly seed: number;
  /** Conversations start in [fromMs, toMs − CONVERSATION_SPAN_MS]. */
  readonly fromMs: number;
  readonly toMs: number;
  /** The big-tenant shape (planBigTenant): one tenant of this many agents, and one of its first agent alone. */
  readonly agentsPerTenant?: number;
}

/** One million messages over 100 tenants and 18 months. */
export const FULL_CORPUS: CorpusSpec = {
  messages: 1_000_000,
  tenants: 100,
  seed: 20_261_121,
  fromMs: Date.parse('2025-05-01T00:00:00Z'),
  toMs: Date.parse('2026-11-01T00:00:00Z'),
};

/** The same tenants, each `factor` times its size. */
export function scaleCorpus(spec: CorpusSpec, factor: number): CorpusSpec {
  return { ...spec, messages: Math.round(spec.messages * factor) };
}

/** The corpus's words: the model's 50,000 most frequent plain words, Zipf exponent 1 (as English). */
export const CORPUS_LEXICON = { words: 50_000, zipfExponent: 1 } as const;

/** 1m, 100k: a corpus's size as it names its cached database (shared by bench:search and bench:context). */
export function corpusSizeLabel(messages: number): string {
  return messages % 1_000_000 === 0
    ? `${messages / 1_000_000}m`
    : messages % 1000 === 0
      ? `${messages / 1000}k`
      : String(messages);
}

export const CONVERSATION_MESSAGES = { min: 20, max: 400 } as const;
/** Room left at the end of the period for a conversation's own duration. */
export const CONVERSATION_SPAN_MS = 45 * 86_400_000;
/** Tenant sizes: Zipf-like (exponent, offset), then bounded to [mean ÷ bound, mean × bound]. */
/** How unevenly messages spread over tenants (Zipf weights, clamped within `bound` of even). */
export interface TenantSpread {
  readonly exponent: number;
  readonly offset: number;
  readonly bound: number;
}

export const TENANT_SPREAD: TenantSpread = { exponent: 0.9, offset: 8, bound: 4 };

const AGENTS = [
  'assistant',
  'support',
  'coder',
  'planner',
  'researcher',
  'ops',
  'sales',
  'tutor',
  'concierge',
  'analyst',
];
const PEOPLE = [
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'frank',
  'grace',
  'heidi',
  'ivan',
  'judy',
  'mallory',
  'oscar',
];
const CHANNELS = ['web', 'slack', 'cli', 'telegram', 'email'];
const MODELS = ['gpt-4o-mini', 'claude-sonnet-4', 'llama-3.1-70b', 'qwen2.5-32b'];

export interface ConversationPlan {
  /** conversations.id: global, 1-based, in tenant order. */
  readonly id: number;
  readonly tenantId: string;
  readonly agent: string;
  readonly sessionKey: string;
  readonly channel: string;
  readonly model: string;
  readonly messages: number;
  readonly startMs: number;
  /** Seed of this conversation's text and timing. */
  readonly seed: number;
}

export interface TenantPlan {
  readonly index: number;
  readonly id: string;
  readonly messages: number;
  /** Most active first. Independent of the corpus size: a scaled corpus has the same agents. */
  readonly agents: readonly string[];
  readonly people: readonly string[];
  readonly conversations: readonly ConversationPlan[];
}

/** A 32-bit seed mixed from several integers (FNV-1a over their bytes, then a final avalanche). */
export function mixSeed(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    for (let shift = 0; shift < 32; shift += 8) h = Math.imul(h ^ ((part >>> shift) & 0xff), 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

export const tenantId = (index: number) => `tenant-${String(index).padStart(3, '0')}`;

/**
 * Messages per tenant: Zipf-like shares bounded to [mean ÷ bound, mean × bound], rounded so they
 * add up to `total` exactly (largest remainder). The biggest tenant comes first.
 */
export function tenantSizes(total: number, tenants: number, spread: TenantSpread = TENANT_SPREAD): number[] {
  if (total < tenants) throw new Error(`tenantSizes: ${total} messages cannot fill ${tenants} tenants`);
  const low = 1 / (spread.bound * tenants);
  const high = spread.bound / tenants;
  let shares = Array.from(zipfWeights(tenants, spread.exponent, spread.offset));
  // Clamp and renormalise until nothing is out of bounds (converges in a few rounds).
  for (let round = 0; round < 50 && shares.some((s) => s < low - 1e-12 || s > high + 1e-12); round++) {
    const clamped = shares.map((s) => Math.min(high, Math.max(low, s)));
    const sum = clamped.reduce((a, b) => a + b, 0);
    shares = clamped.map((s) => s / sum);
  }
  const exact = shares.map((s) => s * total);
  const sizes = exact.map(Math.floor);
  let missing = total - sizes.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((x, i) => [x - Math.floor(x), i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of byRemainder) {
    if (missing-- <= 0) break;
    sizes[i]!++;
  }
  return sizes;
}

/** A conversation length: log-uniform in [min, max] (many short conversations, a few long ones). */
export function conversationLength(random: SeededRandom): number {
  const { min, max } = CONVERSATION_MESSAGES;
  return Math.round(Math.exp(Math.log(min) + random.next() * Math.log(max / min)));
}

/**
 * Splits a tenant's messages into conversations of CONVERSATION_MESSAGES.min … max messages
 * (the last one takes a remainder too small to stand alone, so it may reach max + min).
 */
export function splitIntoConversations(messages: number, random: SeededRandom): number[] {
  const { min } = CONVERSATION_MESSAGES;
  if (messages < min) return messages > 0 ? [messages] : [];
  const lengths: number[] = [];
  let left = messages;
  while (left > 0) {
    let n = Math.min(left, conversationLength(random));
    if (left - n < min) n = left;
    lengths.push(n);
    left -= n;
  }
  return lengths;
}

/** k distinct items of `items` (all of them when there are fewer), in a random order. */
export function sampleDistinct<T>(random: SeededRandom, items: readonly T[], k: number): T[] {
  const pool = [...items];
  for (let i = 0; i < Math.min(k, pool.length); i++) {
    const j = i + Math.floor(random.next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, k);
}

/** Picks an index with probability ∝ weights[i]. */
function weighted(random: SeededRandom, weights: ArrayLike<number>): number {
  let x = random.next();
  for (let i = 0; i < weights.length; i++) if ((x -= weights[i]!) < 0) return i;
  return weights.length - 1;
}

/** A conversation of tenant `index` (`id`): its channel, model and start drawn from `random`, in that order. */
function conversationPlan(
  spec: CorpusSpec,
  random: SeededRandom,
  c: { index: number; id: string; agent: string; conversationId: number; length: number },
): ConversationPlan {
  const latestStart = spec.toMs - CONVERSATION_SPAN_MS;
  return {
    id: c.conversationId,
    tenantId: c.id,
    agent: c.agent,
    sessionKey: `${c.agent}-${c.conversationId.toString(36)}`,
    channel: random.pick(CHANNELS),
    model: random.pick(MODELS),
    messages: c.length,
    startMs: spec.fromMs + Math.floor(random.next() * (latestStart - spec.fromMs)),
    seed: mixSeed(spec.seed, c.index, 3, c.conversationId),
  };
}

/** Every tenant's agents, people and conversations. */
export function planCorpus(spec: CorpusSpec): TenantPlan[] {
  const sizes = tenantSizes(spec.messages, spec.tenants);
  let conversationId = 0;
  return sizes.map((messages, index) => {
    const identity = new SeededRandom(mixSeed(spec.seed, index, 1));
    const agents = sampleDistinct(identity, AGENTS, identity.int(2, 6));
    const people = sampleDistinct(identity, PEOPLE, identity.int(1, 6));
    const agentWeights = zipfWeights(agents.length, 1, 1);
    const random = new SeededRandom(mixSeed(spec.seed, index, 2, spec.messages));
    const id = tenantId(index);
    const conversations = splitIntoConversations(messages, random).map((length) => {
      const agent = agents[weighted(random, agentWeights)]!;
      return conversationPlan(spec, random, { index, id, agent, conversationId: ++conversationId, length });
    });
    return { index, id, messages, agents, people, conversations };
  });
}

/** Leaf summaries cover consecutive runs of this many messages (the tail shorter than a run is not summarised yet). */
export const LEAF_MESSAGES = { min: 16, max: 24 } as const;
/** A branch summary covers this many consecutive leaves. */
export const BRANCH_LEAVES = 5;

export interface SummaryPlan {
  /** [from, to) message positions within the conversation, per leaf. */
  readonly leaves: ReadonlyArray<readonly [number, number]>;
  /** [from, to) leaf indexes, per branch (depth 1). */
  readonly branches: ReadonlyArray<readonly [number, number]>;
}

/** Where a conversation of `messages` messages has summaries, as the compactor would have made them. */
export function planSummaries(messages: number, random: SeededRandom): SummaryPlan {
  const leaves: Array<readonly [number, number]> = [];
  for (let from = 0; ;) {
    const to = from + random.int(LEAF_MESSAGES.min, LEAF_MESSAGES.max);
    if (to > messages) break;
    leaves.push([from, to]);
    from = to;
  }
  const branches: Array<readonly [number, number]> = [];
  for (let from = 0; from + BRANCH_LEAVES <= leaves.length; from += BRANCH_LEAVES)
    branches.push([from, from + BRANCH_LEAVES]);
  return { leaves, branches };
}

/** Facts extracted from a conversation: one, plus one per 100 messages or so (at most 6). */
export function factCount(messages: number, random: SeededRandom): number {
  return Math.min(6, random.int(1, 2 + Math.floor(messages / 100)));
}

/** Agents of the big tenant: `agent-000`, `agent-001`, … */
export const bigTenantAgent = (i: number) => `agent-${String(i).padStart(3, '0')}`;

/**
 * The big-tenant shape: tenant-000 holds `spec.agentsPerTenant` agents sharing `spec.messages`
 * evenly (an organisation), tenant-001 holds the same conversations of its first agent and
 * nothing else (same seeds, people and times, so the same rows): a search scoped to that agent
 * should cost the same in both.
 */
export function planBigTenant(spec: CorpusSpec): TenantPlan[] {
  const agents = Array.from({ length: spec.agentsPerTenant ?? 1 }, (_, i) => bigTenantAgent(i));
  const people = PEOPLE.slice(0, 4);
  const random = new SeededRandom(mixSeed(spec.seed, 7, spec.messages));
  const perAgent = Math.floor(spec.messages / agents.length);
  let conversationId = 0;
  const conversations = agents.flatMap((agent, a) =>
    splitIntoConversations(perAgent + (a < spec.messages % agents.length ? 1 : 0), random).map((length) =>
      conversationPlan(spec, random, {
        index: 0,
        id: tenantId(0),
        agent,
        conversationId: ++conversationId,
        length,
      }),
    ),
  );
  const alone = conversations
    .filter((c) => c.agent === agents[0])
    .map((c): ConversationPlan => {
      conversationId++;
      return {
        ...c,
        id: conversationId,
        tenantId: tenantId(1),
        sessionKey: `${c.agent}-${conversationId.toString(36)}`,
      };
    });
  const sum = (cs: readonly ConversationPlan[]) => cs.reduce((n, c) => n + c.messages, 0);
  return [
    { index: 0, id: tenantId(0), messages: sum(conversations), agents, people, conversations },
    {
      index: 1,
      id: tenantId(1),
      messages: sum(alone),
      agents: agents.slice(0, 1),
      people,
      conversations: alone,
    },
  ];
}
