import type { NatsConnection } from '@nats-io/transport-node';
import { summarizeLatencies, type LatencySummary } from '../measure/latency-stats';
import { search } from './measure-search';
import type { BenchQuery } from './query-generator';

/** The big-tenant shape measured: what a scoped search and a cold load cost in a tenant of many agents. */
export interface BigTenantResult {
  readonly agents: number;
  readonly bigMessages: number;
  readonly aloneMessages: number;
  /** From the big tenant's first search until retrieval reports its index loaded (read every CHECK_EVERY_MS). */
  readonly coldLoadBigMs: number;
  /** The alone tenant's searches (by its index) while nothing loads: before the big tenant's load and after it (with the scoped ones), so that the machine's drift over the run weighs on both sides. */
  readonly idle: LatencySummary;
  /** The same searches while the big tenant's index loads. */
  readonly loading: LatencySummary;
  /** The big tenant's own searches meanwhile, one every PROBE_EVERY_MS (answered by Postgres until its index is ready). */
  readonly bigWhileLoading: LatencySummary;
  /** The agent's searches in the big tenant, by its index, one at a time. */
  readonly scoped: LatencySummary;
  /** The same searches in the tenant of that agent alone, interleaved with those. */
  readonly scopedAlone: LatencySummary;
}

/**
 * How often the big tenant is asked while it loads (answered by Postgres, hundreds of ms of its
 * CPU each: asked more often, the bench itself would be the load on the machine).
 */
const PROBE_EVERY_MS = 2000;
/** How often retrieval's metrics are read to see whether the load is done. */
const CHECK_EVERY_MS = 200;

const timed = async <T>(call: () => Promise<T>): Promise<{ ms: number; value: T }> => {
  const t0 = performance.now();
  const value = await call();
  return { ms: performance.now() - t0, value };
};

/** Searches `tenantId` with each query until one is answered by the index (its load began with the first). */
async function untilIndexed(nc: NatsConnection, tenantId: string, probe: BenchQuery): Promise<void> {
  const started = performance.now();
  while ((await search(nc, { ...probe, tenantId }, { recordAccess: false })).answeredBy !== 'index') {
    if (performance.now() - started > 600_000) throw new Error(`${tenantId}'s index not loaded after 10 min`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * One client, one search at a time, in a fresh retrieval: the alone tenant is loaded, warmed up
 * and timed idle; then the big tenant's first search starts its load, and the alone tenant's
 * searches are timed until retrieval reports both indexes loaded (the big tenant is asked every
 * PROBE_EVERY_MS meanwhile); then each query scoped to the agent goes to both tenants in turn.
 */
export async function measureBigTenant(
  nc: NatsConnection,
  queries: readonly BenchQuery[],
  tenants: { readonly big: string; readonly alone: string; readonly agent: string },
  sizes: { readonly agents: number; readonly bigMessages: number; readonly aloneMessages: number },
  loadedTenants: () => Promise<number>,
): Promise<BigTenantResult> {
  const scopedTo = (q: BenchQuery, tenantId: string): BenchQuery => ({
    ...q,
    tenantId,
    filters: { ...q.filters, agent: tenants.agent },
  });
  const ask = async (q: BenchQuery) => (await timed(() => search(nc, q, { recordAccess: false }))).ms;
  await untilIndexed(nc, tenants.alone, queries[0]!);
  for (const q of queries) await ask(scopedTo(q, tenants.alone)); // warm-up: compiled code, caches
  const idle: number[] = [];
  for (const q of queries) idle.push(await ask(scopedTo(q, tenants.alone)));

  const loading: number[] = [];
  const bigWhileLoading: number[] = [];
  const askBig = (q: BenchQuery) =>
    timed(() => search(nc, { ...q, tenantId: tenants.big }, { recordAccess: false }));
  const started = performance.now();
  bigWhileLoading.push((await askBig(queries[0]!)).ms); // starts the load
  let coldLoadBigMs = 0;
  let nextCheck = started + CHECK_EVERY_MS;
  let nextProbe = started + PROBE_EVERY_MS;
  for (let i = 1; coldLoadBigMs === 0; i++) {
    if (performance.now() - started > 600_000)
      throw new Error(`${tenants.big}'s index not loaded after 10 min`);
    const q = queries[i % queries.length]!;
    loading.push(await ask(scopedTo(q, tenants.alone)));
    if (performance.now() >= nextProbe) {
      const big = await askBig(q);
      if (big.value.answeredBy !== 'index') bigWhileLoading.push(big.ms);
      nextProbe = performance.now() + PROBE_EVERY_MS;
    }
    if (performance.now() >= nextCheck) {
      if ((await loadedTenants()) >= 2) coldLoadBigMs = performance.now() - started;
      nextCheck = performance.now() + CHECK_EVERY_MS;
    }
  }
  if ((await askBig(queries[0]!)).value.answeredBy !== 'index')
    throw new Error(`${tenants.big} is loaded, yet its index did not answer`);

  const scoped: number[] = [];
  const scopedAlone: number[] = [];
  for (const q of queries) {
    scoped.push(await ask(scopedTo(q, tenants.big)));
    scopedAlone.push(await ask(scopedTo(q, tenants.alone)));
  }
  return {
    ...sizes,
    coldLoadBigMs: Math.round(coldLoadBigMs),
    idle: summarizeLatencies([...idle, ...scopedAlone]),
    loading: summarizeLatencies(loading),
    bigWhileLoading: summarizeLatencies(bigWhileLoading),
    scoped: summarizeLatencies(scoped),
    scopedAlone: summarizeLatencies(scopedAlone),
  };
}

/** The big-tenant run's last stdout line. */
export interface BigTenantHeadline {
  readonly agents: number;
  readonly bigMessages: number;
  readonly scopedP50Ms: number;
  readonly scopedAloneP50Ms: number;
  readonly loadingP95Ms: number;
  readonly idleP95Ms: number;
  readonly coldLoadBigMs: number;
}

/** The targets: scoped p50 ≤ 1.5 × alone, p95 while loading ≤ 2 × idle, a load ≤ 10 s per 100 k messages. */
export const BIG_TENANT_TARGETS = { scopedRatio: 1.5, loadingRatio: 2, loadMsPer100k: 10_000 } as const;

export function bigTenantHeadline(r: BigTenantResult): BigTenantHeadline {
  return {
    agents: r.agents,
    bigMessages: r.bigMessages,
    scopedP50Ms: r.scoped.p50Ms,
    scopedAloneP50Ms: r.scopedAlone.p50Ms,
    loadingP95Ms: r.loading.p95Ms,
    idleP95Ms: r.idle.p95Ms,
    coldLoadBigMs: r.coldLoadBigMs,
  };
}

/** Each target met or not, with the ratio measured. */
export function bigTenantTargets(h: BigTenantHeadline) {
  const scopedRatio = h.scopedP50Ms / h.scopedAloneP50Ms;
  const loadingRatio = h.loadingP95Ms / h.idleP95Ms;
  const loadMsPer100k = (h.coldLoadBigMs * 100_000) / h.bigMessages;
  const round2 = (x: number) => Math.round(x * 100) / 100;
  return {
    ...BIG_TENANT_TARGETS,
    scoped: { ratio: round2(scopedRatio), met: scopedRatio <= BIG_TENANT_TARGETS.scopedRatio },
    loading: { ratio: round2(loadingRatio), met: loadingRatio <= BIG_TENANT_TARGETS.loadingRatio },
    load: { msPer100k: Math.round(loadMsPer100k), met: loadMsPer100k <= BIG_TENANT_TARGETS.loadMsPer100k },
  };
}

/** A few lines for a person. */
export function renderBigTenant(r: BigTenantResult): string {
  const t = bigTenantTargets(bigTenantHeadline(r));
  const line = (name: string, s: LatencySummary) =>
    `${name.padEnd(44)} p50 ${s.p50Ms.toFixed(1).padStart(7)} ms  p95 ${s.p95Ms.toFixed(1).padStart(7)} ms  (${s.count})`;
  return [
    `big tenant: ${r.agents} agents, ${r.bigMessages.toLocaleString('en-US')} messages; the agent alone: ${r.aloneMessages.toLocaleString('en-US')}`,
    line('scoped search, big tenant (index)', r.scoped),
    line('scoped search, tenant of the agent alone', r.scopedAlone),
    `  ratio ${t.scoped.ratio} (target ≤ ${t.scopedRatio}: ${t.scoped.met ? 'met' : 'MISSED'})`,
    line('alone tenant, idle', r.idle),
    line('alone tenant, during the big cold load', r.loading),
    `  ratio ${t.loading.ratio} (target ≤ ${t.loadingRatio}: ${t.loading.met ? 'met' : 'MISSED'})`,
    line('big tenant during its load (Postgres)', r.bigWhileLoading),
    `cold load of the big tenant: ${r.coldLoadBigMs} ms (${t.load.msPer100k} ms per 100 k; target ≤ ${t.loadMsPer100k}: ${t.load.met ? 'met' : 'MISSED'})`,
  ].join('\n');
}
