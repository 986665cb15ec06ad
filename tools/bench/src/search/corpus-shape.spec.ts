import { SeededRandom } from '../corpus/seeded-random';
import {
  BRANCH_LEAVES,
  CONVERSATION_MESSAGES,
  CONVERSATION_SPAN_MS,
  factCount,
  FULL_CORPUS,
  LEAF_MESSAGES,
  mixSeed,
  planBigTenant,
  planCorpus,
  planSummaries,
  scaleCorpus,
  splitIntoConversations,
  tenantSizes,
} from './corpus-shape';

describe('search corpus shape', () => {
  it('spreads a million messages over 100 tenants unevenly but within bounds, exactly', () => {
    const sizes = tenantSizes(1_000_000, 100);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1_000_000);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(40_000);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(2_500);
    expect(Math.max(...sizes) / Math.min(...sizes)).toBeGreaterThan(5); // uneven
    const sorted = [...sizes].sort((a, b) => a - b);
    expect(sorted[50]).toBeGreaterThan(5_000);
    expect(sorted[50]).toBeLessThan(10_000); // median below the mean: a few big tenants
    expect(sizes[0]).toBe(Math.max(...sizes));
  });

  it('bounds a steep spread, and rounds any total exactly', () => {
    const steep = tenantSizes(100_000, 10, { exponent: 3, offset: 0, bound: 2 });
    expect(steep.reduce((a, b) => a + b, 0)).toBe(100_000);
    expect(Math.max(...steep)).toBeLessThanOrEqual(20_000 + 1);
    expect(Math.min(...steep)).toBeGreaterThanOrEqual(5_000 - 1);
    expect(tenantSizes(1_003, 7).reduce((a, b) => a + b, 0)).toBe(1_003);
    expect(() => tenantSizes(5, 10)).toThrow(/cannot fill/);
  });

  it('splits a tenant into conversations of 20–400 messages (a remainder joins the last)', () => {
    const random = new SeededRandom(1);
    for (const total of [20, 21, 39, 400, 401, 9_999, 38_000]) {
      const lengths = splitIntoConversations(total, random);
      expect(lengths.reduce((a, b) => a + b, 0)).toBe(total);
      for (const n of lengths) {
        expect(n).toBeGreaterThanOrEqual(CONVERSATION_MESSAGES.min);
        expect(n).toBeLessThan(CONVERSATION_MESSAGES.max + CONVERSATION_MESSAGES.min);
      }
    }
    expect(splitIntoConversations(7, random)).toEqual([7]);
    expect(splitIntoConversations(0, random)).toEqual([]);
    const many = splitIntoConversations(1_000_000, new SeededRandom(2));
    const mean = 1_000_000 / many.length;
    expect(mean).toBeGreaterThan(100); // log-uniform 20…400: mean ≈ 127
    expect(mean).toBeLessThan(160);
  });

  it('plans summaries over ~20 messages and a branch over every 5 leaves', () => {
    const random = new SeededRandom(3);
    const plan = planSummaries(400, random);
    let expected = 0;
    for (const [from, to] of plan.leaves) {
      expect(from).toBe(expected);
      expect(to - from).toBeGreaterThanOrEqual(LEAF_MESSAGES.min);
      expect(to - from).toBeLessThanOrEqual(LEAF_MESSAGES.max);
      expected = to;
    }
    expect(400 - expected).toBeLessThan(LEAF_MESSAGES.max); // only the unfinished tail is left
    expect(plan.branches).toEqual(
      Array.from({ length: Math.floor(plan.leaves.length / BRANCH_LEAVES) }, (_, i) => [i * 5, i * 5 + 5]),
    );
    expect(planSummaries(15, random)).toEqual({ leaves: [], branches: [] });
    for (let i = 0; i < 100; i++) {
      const n = factCount(20 + i * 4, random);
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(6);
    }
  });

  it('plans every tenant: agents, people, conversations with global ids inside the period', () => {
    const spec = scaleCorpus(FULL_CORPUS, 0.1);
    const tenants = planCorpus(spec);
    expect(tenants).toHaveLength(100);
    expect(tenants.reduce((n, t) => n + t.messages, 0)).toBe(100_000);
    const ids = tenants.flatMap((t) => t.conversations.map((c) => c.id));
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
    for (const t of tenants) {
      expect(t.agents.length).toBeGreaterThanOrEqual(2);
      expect(t.agents.length).toBeLessThanOrEqual(6);
      expect(new Set(t.agents).size).toBe(t.agents.length);
      expect(t.conversations.reduce((n, c) => n + c.messages, 0)).toBe(t.messages);
      for (const c of t.conversations) {
        expect(t.agents).toContain(c.agent);
        expect(c.tenantId).toBe(t.id);
        expect(c.startMs).toBeGreaterThanOrEqual(spec.fromMs);
        expect(c.startMs).toBeLessThanOrEqual(spec.toMs - CONVERSATION_SPAN_MS);
      }
      expect(new Set(t.conversations.map((c) => c.sessionKey)).size).toBe(t.conversations.length);
    }
  });

  it('gives a scaled corpus the same tenants and agents, each a tenth the size', () => {
    const full = planCorpus({ ...FULL_CORPUS, messages: 200_000 });
    const tenth = planCorpus(scaleCorpus({ ...FULL_CORPUS, messages: 200_000 }, 0.1));
    expect(tenth.map((t) => [t.id, t.agents, t.people])).toEqual(full.map((t) => [t.id, t.agents, t.people]));
    tenth.forEach((t, i) => expect(Math.abs(t.messages - full[i]!.messages / 10)).toBeLessThanOrEqual(1));
    expect(planCorpus(scaleCorpus(FULL_CORPUS, 0.01))).toEqual(planCorpus(scaleCorpus(FULL_CORPUS, 0.01))); // deterministic
  });

  it('mixes seeds so that neighbours differ', () => {
    expect(mixSeed(1, 2)).not.toBe(mixSeed(2, 1));
    expect(mixSeed(1, 2)).not.toBe(mixSeed(1, 3));
    expect(mixSeed(1, 2)).toBe(mixSeed(1, 2));
  });
});

describe('big-tenant shape', () => {
  const spec = { ...FULL_CORPUS, messages: 40_000, agentsPerTenant: 80 };
  const [big, alone] = planBigTenant(spec);

  it('spreads the messages evenly over the agents of one tenant, exactly', () => {
    expect(big!.messages).toBe(40_000);
    expect(big!.agents).toHaveLength(80);
    const byAgent = new Map<string, number>();
    for (const c of big!.conversations) byAgent.set(c.agent, (byAgent.get(c.agent) ?? 0) + c.messages);
    expect(new Set(byAgent.values())).toEqual(new Set([500]));
  });

  it('gives the second tenant the first agent’s conversations alone, as the same rows', () => {
    const first = big!.conversations.filter((c) => c.agent === big!.agents[0]);
    expect(alone!.agents).toEqual([big!.agents[0]]);
    expect(alone!.people).toEqual(big!.people);
    const same = ({ agent, messages, startMs, seed, channel, model }: (typeof first)[number]) =>
      JSON.stringify({ agent, messages, startMs, seed, channel, model });
    expect(alone!.conversations.map(same)).toEqual(first.map(same));
    const ids = [...big!.conversations, ...alone!.conversations].map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
