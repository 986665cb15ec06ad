import { DEFAULT_QUERY_MIX } from '../search/query-generator';
import {
  buildRunOf,
  contextHeadline,
  contextTargets,
  latencyRunOf,
  renderContextTable,
  retrievalShare,
  type BuildAnswer,
  type ContextBenchResult,
} from './context-report';

const answer = (over: Partial<BuildAnswer> = {}): BuildAnswer => ({
  totalTokens: 4000,
  memoryHits: 12,
  recentMessages: 20,
  skills: false,
  cutLayers: 0,
  ...over,
});
const loop = <R>(outcomes: Array<{ latencyMs: number; value?: R; error?: string }>) => ({
  outcomes,
  wallMs: 1000,
});

describe('context benchmark report', () => {
  const builds = buildRunOf(
    loop([
      ...Array.from({ length: 18 }, (_, i) => ({ latencyMs: 10 + i, value: answer() })),
      {
        latencyMs: 50,
        value: answer({
          skills: true,
          cutLayers: 2,
          memoryHits: 0,
          degradedReason: 'relevant memory left out: TIMEOUT',
        }),
      },
      { latencyMs: 60, value: answer({ skills: true, totalTokens: 6000 }) },
    ]),
  );

  it('summarises a run of builds: percentiles, what the prompts held, degraded answers', () => {
    expect(builds.calls).toBe(20);
    expect(builds.latency).toMatchObject({ count: 20, p50Ms: 19, p95Ms: 50, maxMs: 60 });
    expect(builds.perSecond).toBe(20);
    expect(builds.degraded).toBe(1);
    expect(builds.degradedReasons).toEqual({ 'relevant memory left out: TIMEOUT': 1 });
    expect(builds.withSkills).toBe(2);
    expect(builds.withCuts).toBe(1);
    expect(builds.meanTotalTokens).toBe(4100);
    expect(builds.meanMemoryHits).toBe(11.4);
  });

  it('counts failed calls by error and leaves them out of the latencies', () => {
    const run = latencyRunOf(
      loop<{ degraded: boolean }>([
        { latencyMs: 5, value: { degraded: false } },
        { latencyMs: 10_000, error: 'TIMEOUT' },
      ]),
      () => undefined,
    );
    expect(run.latency.count).toBe(1);
    expect(run.latency.maxMs).toBe(5);
    expect(run.errors).toEqual({ TIMEOUT: 1 });
  });

  it('headlines exactly p50 and p95 of the concurrent builds, null when a call failed', () => {
    expect(contextHeadline({ builds: { concurrent: builds, serial: builds } })).toEqual({
      p50Ms: 19,
      p95Ms: 50,
    });
    const failed = { ...builds, calls: 21 };
    expect(contextHeadline({ builds: { concurrent: failed, serial: builds } })).toEqual({
      p50Ms: null,
      p95Ms: null,
    });
    expect(Object.keys(contextHeadline({ builds: { concurrent: builds, serial: builds } }))).toEqual([
      'p50Ms',
      'p95Ms',
    ]);
  });

  it('judges the target: p95 ≤ 30 ms', () => {
    expect(contextTargets({ p50Ms: 10, p95Ms: 30 }).p95Met).toBe(true);
    expect(contextTargets({ p50Ms: 10, p95Ms: 30.1 }).p95Met).toBe(false);
    expect(contextTargets({ p50Ms: null, p95Ms: null }).p95Met).toBeNull();
  });

  it('gives retrieval’s p95 as a share of the build’s', () => {
    const retrieval = latencyRunOf(
      loop(Array.from({ length: 20 }, (_, i) => ({ latencyMs: i + 1, value: {} }))),
      () => undefined,
    );
    expect(retrievalShare(builds, retrieval)).toBe(0.38);
    expect(retrievalShare(builds, undefined)).toBeNull();
  });

  it('renders every figure and the verdict', () => {
    const result: ContextBenchResult = {
      benchmark: 'context',
      finishedAt: '2026-11-22T04:00:00Z',
      machine: {
        cpu: 'AMD EPYC',
        cores: 2,
        memoryGiB: 24,
        os: 'linux',
        node: 'v20',
        postgres: '15',
        pgvector: '0.8.0',
        postgresSettings: {},
        natsServer: 'v2',
        loadAverageAtStart: 1.5,
      },
      loadAverageAtEnd: 2.5,
      settings: {
        clients: 8,
        queries: 20,
        warmup: 2,
        searchQueries: 20,
        seed: 42,
        queryMix: DEFAULT_QUERY_MIX,
        lexicon: { words: 50_000, zipfExponent: 1 },
        corpusVersion: 1,
        now: '2026-11-01T00:00:00.000Z',
        memoryHits: 12,
        env: {},
        logLevel: 'info',
      },
      corpus: {
        label: '1m',
        database: 'engram_bench_search_1m_v1_x',
        reused: true,
        loadedAt: '2026-11-22T03:30:00Z',
        messages: 1_000_000,
        tenants: 100,
        conversations: 8074,
        facts: 15245,
        vectors: 1_067_821,
      },
      seeded: { agents: 300, documents: 1500, skills: 750, stickyFacts: 3000, seconds: 2 },
      indexes: {
        oneTenant: { tenantId: 'tenant-000', messages: 10_000, ms: 900 },
        all: { tenants: 99, messages: 990_000, ms: 60_000 },
      },
      builds: { concurrent: builds, serial: builds },
      retrieval: { concurrent: builds, serial: builds },
      targets: contextTargets({ p50Ms: 19, p95Ms: 50 }),
    };
    const table = renderContextTable(result);
    expect(table).toContain('context.build, 8 clients');
    expect(table).toContain('p50 19.0 ms, p95 50.0 ms, p99 60.0 ms');
    expect(table).toContain('retrieval alone, serial');
    expect(table).toContain('100 % of the build');
    expect(table).toContain('MISSED by 20.0 ms');
    expect(table).toContain('load 1.5 at start, 2.5 at end');
  });
});
