import { SeededRandom } from '../corpus/seeded-random';

/** Filters of a benchmark query, as both the RPC (SearchFilters) and the floor take them. */
export interface QueryFilters {
  readonly agent?: string;
  readonly from?: Date;
  readonly to?: Date;
}

export interface BenchQuery {
  readonly tenantId: string;
  readonly text: string;
  readonly filters: QueryFilters;
  readonly topK: number;
}

export interface QueryMix {
  readonly words: { readonly min: number; readonly max: number };
  /** Queries that keep the function words they drew ("how to deploy the cluster"): the rest are content words only. */
  readonly withFunctionWords: number;
  readonly agentFilter: number;
  readonly dateFilter: number;
  /** A date filter's window, in days. */
  readonly windowDays: { readonly min: number; readonly max: number };
  readonly topK: number;
}

export const DEFAULT_QUERY_MIX: QueryMix = {
  words: { min: 2, max: 8 },
  withFunctionWords: 0.15,
  agentFilter: 0.25,
  dateFilter: 0.2,
  windowDays: { min: 7, max: 120 },
  topK: 10,
};

export interface QuerySource {
  /** A word drawn from the corpus's own distribution. */
  word(random: SeededRandom): string;
  /** Whether a word carries meaning (not a function word). */
  isContentWord(word: string): boolean;
  readonly tenants: ReadonlyArray<{ readonly id: string; readonly agents: readonly string[] }>;
  readonly period: { readonly fromMs: number; readonly toMs: number };
}

const DAY = 86_400_000;

/**
 * `count` queries as agents ask them: 2–8 words drawn from the corpus's own word distribution
 * (mostly content words; the function words of the rest are what full-text search drops), to a
 * random tenant, sometimes for one agent, sometimes over a window of time. Deterministic.
 */
export function generateQueries(
  count: number,
  source: QuerySource,
  seed: number,
  mix: QueryMix = DEFAULT_QUERY_MIX,
): BenchQuery[] {
  const random = new SeededRandom(seed);
  const queries: BenchQuery[] = [];
  for (let q = 0; q < count; q++) {
    const tenant = random.pick(source.tenants);
    const n = random.int(mix.words.min, mix.words.max);
    const keepFunctionWords = random.chance(mix.withFunctionWords);
    const words: string[] = [];
    while (words.length < n) {
      const word = source.word(random);
      const content = source.isContentWord(word);
      if (content && words.includes(word)) continue;
      if (content || (keepFunctionWords && words.length > 0)) words.push(word);
    }
    const filters: { agent?: string; from?: Date; to?: Date } = {};
    if (random.chance(mix.agentFilter)) filters.agent = random.pick(tenant.agents);
    if (random.chance(mix.dateFilter)) {
      const days = random.int(mix.windowDays.min, mix.windowDays.max);
      const from =
        source.period.fromMs +
        Math.floor(random.next() * (source.period.toMs - source.period.fromMs - days * DAY));
      filters.from = new Date(from);
      filters.to = new Date(from + days * DAY);
    }
    queries.push({ tenantId: tenant.id, text: words.join(' '), filters, topK: mix.topK });
  }
  return queries;
}
