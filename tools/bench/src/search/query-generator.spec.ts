import { SeededRandom } from '../corpus/seeded-random';
import { DEFAULT_QUERY_MIX, generateQueries, type QuerySource } from './query-generator';
import { ZipfText } from './zipf-text';

const FUNCTION_WORDS = new Set(['the', 'of', 'and', 'to', 'in', 'a', 'is']);
const words = [...FUNCTION_WORDS, ...Array.from({ length: 3000 }, (_, i) => `term${i}`)];
const text = new ZipfText(words, 1);
const DAY = 86_400_000;
const source: QuerySource = {
  word: (random: SeededRandom) => text.word(random),
  isContentWord: (w) => !FUNCTION_WORDS.has(w),
  tenants: [
    { id: 'a', agents: ['coder', 'ops'] },
    { id: 'b', agents: ['support', 'sales', 'tutor'] },
    { id: 'c', agents: ['assistant', 'planner'] },
  ],
  period: { fromMs: Date.parse('2025-05-01T00:00:00Z'), toMs: Date.parse('2026-11-01T00:00:00Z') },
};

describe('search benchmark queries', () => {
  const queries = generateQueries(4000, source, 7);

  it('asks 2–8 words, mostly content words only, each word at most once', () => {
    for (const q of queries) {
      const ws = q.text.split(' ');
      expect(ws.length).toBeGreaterThanOrEqual(2);
      expect(ws.length).toBeLessThanOrEqual(8);
      expect(FUNCTION_WORDS.has(ws[0]!)).toBe(false);
      const content = ws.filter((w) => !FUNCTION_WORDS.has(w));
      expect(new Set(content).size).toBe(content.length);
      expect(q.topK).toBe(10);
    }
    const withFunctionWords =
      queries.filter((q) => q.text.split(' ').some((w) => FUNCTION_WORDS.has(w))).length / queries.length;
    expect(withFunctionWords).toBeGreaterThan(0.05);
    expect(withFunctionWords).toBeLessThan(DEFAULT_QUERY_MIX.withFunctionWords + 0.02);
  });

  it('draws the words from the corpus distribution: frequent words are asked often', () => {
    const counts = new Map<string, number>();
    for (const q of queries) for (const w of q.text.split(' ')) counts.set(w, (counts.get(w) ?? 0) + 1);
    expect(counts.get('term0')!).toBeGreaterThan(counts.get('term50') ?? 0);
    expect(counts.size).toBeGreaterThan(1000);
  });

  it('spreads queries over tenants, filters some by agent (the tenant’s own) and some by a window in the period', () => {
    const byTenant = new Map<string, number>();
    for (const q of queries) byTenant.set(q.tenantId, (byTenant.get(q.tenantId) ?? 0) + 1);
    expect([...byTenant.values()].every((n) => n > 1100)).toBe(true);
    const agent = queries.filter((q) => q.filters.agent !== undefined);
    const dated = queries.filter((q) => q.filters.from !== undefined);
    expect(agent.length / queries.length).toBeCloseTo(DEFAULT_QUERY_MIX.agentFilter, 1);
    expect(dated.length / queries.length).toBeCloseTo(DEFAULT_QUERY_MIX.dateFilter, 1);
    for (const q of agent)
      expect(source.tenants.find((t) => t.id === q.tenantId)!.agents).toContain(q.filters.agent);
    for (const q of dated) {
      const days = (q.filters.to!.getTime() - q.filters.from!.getTime()) / DAY;
      expect(days).toBeGreaterThanOrEqual(7);
      expect(days).toBeLessThanOrEqual(120);
      expect(q.filters.from!.getTime()).toBeGreaterThanOrEqual(source.period.fromMs);
      expect(q.filters.to!.getTime()).toBeLessThanOrEqual(source.period.toMs);
    }
  });

  it('is deterministic', () => {
    expect(generateQueries(50, source, 7)).toEqual(queries.slice(0, 50));
    expect(generateQueries(50, source, 8)).not.toEqual(queries.slice(0, 50));
  });
});
