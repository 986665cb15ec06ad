import { Pool } from 'pg';
import type { NatsConnection } from '@nats-io/transport-node';
import { Rpcs, timestampFromDate, type MessageInitShape } from '@engram/contracts';
import { callRpc, RpcError } from '@engram/messaging';
import { summarizeLatencies } from '../measure/latency-stats';
import { scrapeMetricSums } from '../measure/prometheus-text';
import { cpuBetween, residentMegabytes, snapshotCpu, type ProcessGroup } from '../measure/process-cpu';
import { runClosedLoop, type ClosedLoopRun } from './closed-loop';
import { explainEach } from './explain';
import { runFloorQuery } from './floor';
import type { BenchQuery } from './query-generator';
import type { ExplainedQuery, LatencyRun } from './search-report';

/** A benchmark query with its vector (for the floor: the RPC has Gerty make it). */
export interface VectorQuery extends BenchQuery {
  readonly vector: readonly number[];
}

const tally = (keys: Iterable<string>) => {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
};

/** The latencies of the calls that succeeded, the errors of the others, the degraded answers and the hits. */
export function latencyRun<R>(
  run: ClosedLoopRun<R>,
  answer: (value: R) => { degradedReason?: string; hits?: number; answeredBy?: string },
  machineBusySecondsDuring?: number,
  cpuSecondsBy?: Record<string, number>,
): LatencyRun {
  const ok = run.outcomes.filter((o) => o.error === undefined);
  const answers = ok.map((o) => answer(o.value as R));
  const degraded = answers.filter((a) => a.degradedReason !== undefined);
  const hits = answers.filter((a) => a.hits !== undefined).map((a) => a.hits!);
  return {
    latency: summarizeLatencies(ok.map((o) => o.latencyMs)),
    calls: run.outcomes.length,
    seconds: run.wallMs / 1000,
    perSecond: run.outcomes.length / (run.wallMs / 1000),
    errors: tally(run.outcomes.filter((o) => o.error !== undefined).map((o) => o.error!)),
    degraded: degraded.length,
    degradedReasons: tally(degraded.map((a) => a.degradedReason || 'unspecified')),
    ...(answers.some((a) => a.answeredBy !== undefined) && {
      answeredBy: tally(answers.map((a) => a.answeredBy || 'unspecified')),
    }),
    ...(hits.length
      ? {
          meanHits: hits.reduce((a, b) => a + b, 0) / hits.length,
          emptyAnswers: hits.filter((h) => h === 0).length,
        }
      : {}),
    ...(machineBusySecondsDuring !== undefined &&
      run.outcomes.length > 0 && {
        machineCpuMsPerCall: (machineBusySecondsDuring * 1000) / run.outcomes.length,
      }),
    ...(cpuSecondsBy &&
      run.outcomes.length > 0 && {
        cpuMsPerCallBy: Object.fromEntries(
          Object.entries(cpuSecondsBy).map(([name, s]) => [
            name,
            Math.round((s * 1e5) / run.outcomes.length) / 100,
          ]),
        ),
      }),
  };
}

/**
 * A closed-loop run, and the CPU the whole machine spent meanwhile (every process: clients, NATS,
 * services, Postgres), also by `groups` of processes (the rest as "other").
 */
export async function closedLoopOnMachine<T, R>(
  items: readonly T[],
  clients: number,
  call: (item: T, client: number) => Promise<R>,
  groups: readonly ProcessGroup[] = [],
) {
  const before = snapshotCpu(groups);
  const run = await runClosedLoop(items, clients, call);
  const after = snapshotCpu(groups);
  const busySeconds = after.get('machine')! - before.get('machine')!;
  return { run, busySeconds, cpuSecondsBy: groups.length > 0 ? cpuBetween(before, after) : undefined };
}

/** The memory_search request of a bench query (the echo row sends the same bytes). */
export function searchRequest(
  q: BenchQuery,
  extra: { recordAccess?: boolean } = {},
): MessageInitShape<typeof Rpcs.search.request> {
  return {
    ...extra,
    query: q.text,
    topK: q.topK,
    filters: {
      agent: q.filters.agent ?? '',
      ...(q.filters.from ? { from: timestampFromDate(q.filters.from) } : {}),
      ...(q.filters.to ? { to: timestampFromDate(q.filters.to) } : {}),
    },
  };
}

/** memory_search over NATS, as an agent runtime asks it. */
export function search(nc: NatsConnection, q: BenchQuery, extra: { recordAccess?: boolean } = {}) {
  return callRpc(nc, Rpcs.search, searchRequest(q, extra), { tenantId: q.tenantId, timeoutMs: 10_000 });
}

/** Warm-up (unmeasured), then the measured queries, `clients` at a time over RPC. */
export async function measureRpc(
  nc: NatsConnection,
  warmup: readonly BenchQuery[],
  measured: readonly BenchQuery[],
  clients: number,
  groups: readonly ProcessGroup[] = [],
  beforeMeasured = () => {},
): Promise<LatencyRun> {
  await runClosedLoop(warmup, clients, (q) => search(nc, q));
  beforeMeasured();
  const { run, busySeconds, cpuSecondsBy } = await closedLoopOnMachine(
    measured,
    clients,
    (q) => search(nc, q),
    groups,
  );
  return latencyRun(
    run,
    (r) => ({
      ...(r.degraded ? { degradedReason: r.degradedReason } : {}),
      hits: r.hits.length,
      answeredBy: r.answeredBy,
    }),
    busySeconds,
    cpuSecondsBy,
  );
}

/** How long the tenants' indexes took to load in a fresh retrieval process. */
export interface IndexWarmUp {
  /** The tenant nearest 10,000 messages, loaded alone: from its first search to the first answered by its index. */
  readonly oneTenant: { readonly tenantId: string; readonly messages: number; readonly ms: number };
  /** Then every other tenant at once: from their first searches to the last tenant answered by its index. */
  readonly all: { readonly tenants: number; readonly messages: number; readonly ms: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Loads every tenant's index by searching it (the first search of a tenant starts its load and is
 * answered by Postgres), timing one tenant of about 10,000 messages alone, then all the others.
 */
export async function warmIndexes(
  nc: NatsConnection,
  tenants: ReadonlyArray<{ readonly tenantId: string; readonly messages: number }>,
  probe: BenchQuery,
): Promise<IndexWarmUp> {
  const fromIndex = async (tenantId: string) =>
    (await search(nc, { ...probe, tenantId, filters: {} }, { recordAccess: false })).answeredBy === 'index';
  const untilLoaded = async (pending: Set<string>, started: number) => {
    while (pending.size > 0) {
      if (performance.now() - started > 600_000)
        throw new Error(`indexes not loaded after 10 min: ${[...pending]}`);
      for (const tenantId of [...pending]) if (await fromIndex(tenantId)) pending.delete(tenantId);
      if (pending.size > 0) await sleep(10);
    }
    return performance.now() - started;
  };
  const one = [...tenants].sort((a, b) => Math.abs(a.messages - 10_000) - Math.abs(b.messages - 10_000))[0]!;
  const oneMs = await untilLoaded(new Set([one.tenantId]), performance.now());
  const others = tenants.filter((t) => t.tenantId !== one.tenantId);
  const allMs = await untilLoaded(new Set(others.map((t) => t.tenantId)), performance.now());
  return {
    oneTenant: { tenantId: one.tenantId, messages: one.messages, ms: Math.round(oneMs) },
    all: {
      tenants: others.length,
      messages: others.reduce((n, t) => n + t.messages, 0),
      ms: Math.round(allMs),
    },
  };
}

/** The retrieval process's memory after the warm-up: its resident set and what its indexes report holding. */
export async function indexMemory(
  pid: number,
  httpPort: number,
): Promise<{ rssMB: number; indexMB: number }> {
  const { bytes } = await scrapeMetricSums(httpPort, { bytes: { name: 'engram_search_index_bytes' } });
  return { rssMB: Math.round(residentMegabytes(pid) ?? NaN), indexMB: Math.round(bytes / 1048576) };
}

/** No corpus has this tenant. */
export const SHELL_TENANT = 'bench-shell-no-such-tenant';

/**
 * THE SHELL: the same memory_search requests, at the same concurrency, for a tenant that does not
 * exist. Each takes the whole path of a search — NATS, the service, Gerty's query vector, a tenant
 * transaction — and is answered NOT_FOUND after the plan's first statement: what any search costs
 * before it looks at a single row. Any other answer fails the call.
 */
export async function measureShell(
  nc: NatsConnection,
  warmup: readonly BenchQuery[],
  measured: readonly BenchQuery[],
  clients: number,
  groups: readonly ProcessGroup[] = [],
  beforeMeasured = () => {},
): Promise<LatencyRun> {
  const call = async (q: BenchQuery) => {
    try {
      await search(nc, { ...q, tenantId: SHELL_TENANT });
    } catch (error) {
      if (error instanceof RpcError && error.code === 'NOT_FOUND') return;
      throw error;
    }
    throw new Error(`memory_search answered for ${SHELL_TENANT}, a tenant that does not exist`);
  };
  await runClosedLoop(warmup, clients, call);
  beforeMeasured();
  const { run, busySeconds, cpuSecondsBy } = await closedLoopOnMachine(measured, clients, call, groups);
  return latencyRun(run, () => ({}), busySeconds, cpuSecondsBy);
}

/** The same, as bare SQL (runFloorQuery) on `clients` connections of the app role. */
export async function measureFloor(
  pool: Pool,
  warmup: readonly VectorQuery[],
  measured: readonly VectorQuery[],
  clients: number,
): Promise<{ run: LatencyRun; latencies: number[] }> {
  const connections = await Promise.all(Array.from({ length: clients }, () => pool.connect()));
  try {
    const call = (q: VectorQuery, c: number) => runFloorQuery(connections[c]!, q.tenantId, q);
    await runClosedLoop(warmup, clients, call);
    const { run, busySeconds } = await closedLoopOnMachine(measured, clients, call);
    return {
      run: latencyRun(run, () => ({}), busySeconds),
      latencies: run.outcomes.map((o) => (o.error === undefined ? o.latencyMs : NaN)),
    };
  } finally {
    for (const c of connections) c.release();
  }
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the floor's statements for a few queries: the slowest of the
 * measured ones, and the first of each kind (no filter, agent filter, date filter).
 */
export async function explainFloor(
  pool: Pool,
  measured: readonly VectorQuery[],
  latencies: readonly number[],
  slowest: number,
): Promise<ExplainedQuery[]> {
  const picks: Array<{ q: VectorQuery; why: string }> = [];
  const byLatency = measured
    .map((q, i) => ({ q, ms: latencies[i]! }))
    .filter((x) => !Number.isNaN(x.ms))
    .sort((a, b) => b.ms - a.ms);
  for (const { q, ms } of byLatency.slice(0, slowest))
    picks.push({ q, why: `slow: ${ms.toFixed(1)} ms in the run` });
  const first = (why: string, test: (q: VectorQuery) => boolean) => {
    const q = measured.find(test);
    if (q) picks.push({ q, why });
  };
  first('no filter', (q) => !q.filters.agent && !q.filters.from);
  first('agent filter', (q) => !!q.filters.agent && !q.filters.from);
  first('date filter', (q) => !!q.filters.from);
  const client = await pool.connect();
  try {
    const out: ExplainedQuery[] = [];
    for (const { q, why } of picks) {
      const statements = await explainEach(client, (c) => runFloorQuery(c, q.tenantId, q));
      const filters = Object.fromEntries(
        Object.entries(q.filters).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : String(v)]),
      );
      out.push({ tenantId: q.tenantId, text: q.text, filters, why, statements });
    }
    return out;
  } finally {
    client.release();
  }
}
