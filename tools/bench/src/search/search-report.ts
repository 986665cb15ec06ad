import type { ProfileSummary } from '../profile/cpu-profile-summary';
import type { LatencySummary } from '../measure/latency-stats';
import { renderColumns } from '../report/columns';
import type { MachineDescription } from '../report/machine';
import type { LoadReport } from './corpus-load';
import type { ExplainedStatement } from './explain';
import type { IndexWarmUp } from './measure-search';
import type { QueryMix } from './query-generator';

export const SEARCH_TARGETS = {
  /** p95 of memory_search at 1 M messages, client side. */
  p95Ms: 25,
  /** p95 at 1 M ≤ this × p95 at 100 k: latency must not grow with the corpus. */
  scaleRatio: 2,
  /** p95 of the RPC ≤ this × p95 of the shell (the same requests for no tenant): what the search itself adds. */
  shellRatio: 1.5,
  /** Busy CPU of the whole machine per search at 1 M, in ms. */
  cpuMsPerSearch: 3.5,
  /** Memory of the indexes per 1 M messages, in MB. */
  indexMBPerMillion: 1000,
  /** CPU per call of the shell ≤ this × the echo's (the bare bus), both by process, in one run. */
  shellCpuOverEcho: 2,
  /** CPU per search ≤ this × the shell's, by process, in one run. */
  searchCpuOverShell: 2,
} as const;

/** A closed-loop measurement: latencies of the calls that succeeded, and what the others did. */
export interface LatencyRun {
  readonly latency: LatencySummary;
  readonly calls: number;
  readonly seconds: number;
  readonly perSecond: number;
  /** Failed calls by error code. */
  readonly errors: Record<string, number>;
  /** Answers that said they were degraded (full text only), by reason. */
  readonly degraded: number;
  readonly degradedReasons: Record<string, number>;
  /** Mean hits per answer, and answers without any. */
  readonly meanHits?: number;
  readonly emptyAnswers?: number;
  /** Busy CPU of the whole machine (every process) during the run, per call. */
  readonly machineCpuMsPerCall?: number;
  /** The same by process (retrieval, gerty, postgres, nats, the bench's clients; "other" the rest). */
  readonly cpuMsPerCallBy?: Record<string, number>;
  /** Where retrieval's CPU went during the run (--cpu-prof). */
  readonly retrievalProfile?: ProfileSummary;
  /** Answers by what ranked them ("index" or "sql"). */
  readonly answeredBy?: Record<string, number>;
}

export interface ExplainedQuery {
  readonly tenantId: string;
  readonly text: string;
  readonly filters: Record<string, string>;
  readonly why: string;
  readonly statements: readonly ExplainedStatement[];
}

export interface ScaleResult {
  readonly label: string;
  readonly database: string;
  /** true: the corpus was loaded by an earlier run (its load report is that run's). */
  readonly reused: boolean;
  readonly loadedAt: string;
  readonly corpus: {
    readonly messages: number;
    readonly tenants: number;
    readonly tenantMessages: { readonly min: number; readonly median: number; readonly max: number };
    readonly conversations: number;
    readonly agents: number;
    readonly summaries: number;
    readonly summarySources: number;
    readonly facts: number;
    readonly vectors: number;
  };
  readonly load: LoadReport;
  /** Loading the tenants' indexes in a fresh retrieval, and what they hold after. */
  readonly index: (IndexWarmUp & { readonly rssMB: number; readonly indexMB: number }) | null;
  readonly rpc: LatencyRun | null;
  /** The same requests for a tenant that does not exist: the path every search takes before it reads a row. */
  readonly shell: LatencyRun | null;
  /** The same requests answered empty by a bare NATS endpoint in its own process: the floor of an RPC. */
  readonly echo: LatencyRun | null;
  /** The echo that first asks Postgres whether the shell's tenant exists: the floor of an RPC that reads the store once. */
  readonly echoRead: LatencyRun | null;
  readonly floor: LatencyRun | null;
  readonly explained: readonly ExplainedQuery[];
}

export interface SearchBenchResult {
  readonly benchmark: 'search';
  readonly finishedAt: string;
  readonly machine: MachineDescription;
  readonly settings: {
    readonly clients: number;
    readonly queries: number;
    readonly warmup: number;
    readonly seed: number;
    readonly queryMix: QueryMix;
    readonly lexicon: { readonly words: number; readonly zipfExponent: number };
    readonly corpusVersion: number;
    readonly env: Record<string, Record<string, string>>;
    readonly logLevel: string;
  };
  readonly scales: readonly ScaleResult[];
  readonly targets: typeof SEARCH_TARGETS & {
    readonly p95Met: boolean | null;
    readonly scaleMet: boolean | null;
    readonly shellMet: boolean | null;
    readonly cpuMet: boolean | null;
    readonly memoryMet: boolean | null;
    readonly shellCpuMet: boolean | null;
    readonly searchCpuMet: boolean | null;
  };
}

export interface SearchHeadline {
  messages: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  shellP95Ms: number | null;
  echoP95Ms: number | null;
  echoReadP95Ms: number | null;
  cpuMsPerSearch: number | null;
  /** CPU per call of the processes each path runs through (cpuMsPerCallBy less "other"). */
  searchCpuMs: number | null;
  shellCpuMs: number | null;
  echoCpuMs: number | null;
  echoReadCpuMs: number | null;
  indexMemoryMB: number | null;
  floorP95Ms: number | null;
  p95Ms100k: number | null;
  coldLoad10kMs: number | null;
  coldLoadAllMs: number | null;
}

/** Only a run in which every call succeeded has a latency worth reporting. */
const clean = (run: LatencyRun | null) => (run && run.latency.count === run.calls ? run.latency : null);
const round = (x: number | undefined) => (x === undefined ? null : Math.round(x * 10) / 10);

/**
 * CPU per call of the processes a run is charged to (services, Postgres' backends of the bench's
 * database, NATS, the clients, the echo), without "other": on a shared machine the rest is
 * someone else's work. Null when the run was not split by process or calls failed.
 */
export function pathCpuMsPerCall(run: LatencyRun | null): number | null {
  if (!clean(run) || !run?.cpuMsPerCallBy) return null;
  const sum = Object.entries(run.cpuMsPerCallBy)
    .filter(([name]) => name !== 'other')
    .reduce((a, [, ms]) => a + ms, 0);
  return Math.round(sum * 100) / 100;
}

/** The headline: what `--json` prints as the last line of stdout (null: not measured, or calls failed). */
export function searchHeadline(result: Pick<SearchBenchResult, 'scales'>): SearchHeadline {
  const [large, small] = result.scales;
  const rpc = clean(large?.rpc ?? null);
  return {
    messages: large?.corpus.messages ?? 0,
    p50Ms: round(rpc?.p50Ms),
    p95Ms: round(rpc?.p95Ms),
    p99Ms: round(rpc?.p99Ms),
    shellP95Ms: round(clean(large?.shell ?? null)?.p95Ms),
    echoP95Ms: round(clean(large?.echo ?? null)?.p95Ms),
    echoReadP95Ms: round(clean(large?.echoRead ?? null)?.p95Ms),
    cpuMsPerSearch: rpc ? round(large?.rpc?.machineCpuMsPerCall) : null,
    searchCpuMs: pathCpuMsPerCall(large?.rpc ?? null),
    shellCpuMs: pathCpuMsPerCall(large?.shell ?? null),
    echoCpuMs: pathCpuMsPerCall(large?.echo ?? null),
    echoReadCpuMs: pathCpuMsPerCall(large?.echoRead ?? null),
    indexMemoryMB: large?.index?.indexMB ?? null,
    floorP95Ms: round(clean(large?.floor ?? null)?.p95Ms),
    p95Ms100k: round(clean(small?.rpc ?? null)?.p95Ms),
    coldLoad10kMs: large?.index?.oneTenant.ms ?? null,
    coldLoadAllMs: large?.index ? large.index.oneTenant.ms + large.index.all.ms : null,
  };
}

export function searchTargets(headline: SearchHeadline): SearchBenchResult['targets'] {
  const { p95Ms, shellP95Ms, p95Ms100k, cpuMsPerSearch, indexMemoryMB, messages } = headline;
  const { searchCpuMs, shellCpuMs, echoCpuMs } = headline;
  return {
    ...SEARCH_TARGETS,
    p95Met: p95Ms === null ? null : p95Ms <= SEARCH_TARGETS.p95Ms,
    scaleMet: p95Ms === null || p95Ms100k === null ? null : p95Ms <= SEARCH_TARGETS.scaleRatio * p95Ms100k,
    shellMet: p95Ms === null || shellP95Ms === null ? null : p95Ms <= SEARCH_TARGETS.shellRatio * shellP95Ms,
    cpuMet: cpuMsPerSearch === null ? null : cpuMsPerSearch <= SEARCH_TARGETS.cpuMsPerSearch,
    memoryMet:
      indexMemoryMB === null
        ? null
        : indexMemoryMB <= (SEARCH_TARGETS.indexMBPerMillion * messages) / 1_000_000,
    shellCpuMet:
      shellCpuMs === null || echoCpuMs === null
        ? null
        : shellCpuMs <= SEARCH_TARGETS.shellCpuOverEcho * echoCpuMs,
    searchCpuMet:
      searchCpuMs === null || shellCpuMs === null
        ? null
        : searchCpuMs <= SEARCH_TARGETS.searchCpuOverShell * shellCpuMs,
  };
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => `${x.toFixed(1)} ms`;
const verdict = (met: boolean | null) => (met === null ? 'not measured' : met ? 'met' : 'MISSED');
const counts = (c: Record<string, number>) =>
  Object.entries(c)
    .map(([k, v]) => `${k} ${n0(v)}`)
    .join(', ');

/** A run's latency cell and its details cell. */
export function runCells(run: LatencyRun | null, what: string): [string, string] {
  if (!run) return ['not run', ''];
  const l = run.latency;
  const failed = run.calls - l.count;
  const head = l.count ? `p50 ${ms(l.p50Ms)}, p95 ${ms(l.p95Ms)}, p99 ${ms(l.p99Ms)}` : 'no answers';
  const rest = [
    `${n0(run.perSecond)} ${what}/s`,
    `max ${ms(l.maxMs)}`,
    failed ? `${n0(failed)} of ${n0(run.calls)} FAILED (${counts(run.errors)})` : `${n0(run.calls)} ok`,
    `${n0(run.degraded)} degraded${run.degraded ? ` (${counts(run.degradedReasons)})` : ''}`,
    run.meanHits === undefined
      ? ''
      : `${run.meanHits.toFixed(1)} hits per answer, ${n0(run.emptyAnswers ?? 0)} empty`,
    run.machineCpuMsPerCall === undefined
      ? ''
      : `${run.machineCpuMsPerCall.toFixed(2)} ms of machine CPU per call`,
    run.cpuMsPerCallBy
      ? `by process: ${Object.entries(run.cpuMsPerCallBy)
          .map(([k, v]) => `${k} ${v.toFixed(2)}`)
          .join(', ')} ms`
      : '',
    run.answeredBy ? `answered by ${counts(run.answeredBy)}` : '',
  ];
  return [head, rest.filter(Boolean).join('; ')];
}

/** A readable table of the figures. */
export function renderSearchTable(r: SearchBenchResult): string {
  const rows: Array<[string, string, string]> = [];
  for (const s of r.scales) {
    const c = s.corpus;
    const l = s.load;
    rows.push(
      [
        `${s.label}: corpus`,
        `${n0(c.messages)} messages`,
        `${c.tenants} tenants (${n0(c.tenantMessages.min)}–${n0(c.tenantMessages.max)} messages, median ${n0(c.tenantMessages.median)}), ${n0(c.agents)} agents, ${n0(c.conversations)} conversations, ${n0(c.summaries)} summaries (${n0(c.summarySources)} sources), ${n0(c.facts)} facts, ${n0(c.vectors)} vectors`,
      ],
      [
        '  load',
        `${n0(l.seconds.total)} s${s.reused ? ' (cached)' : ''}`,
        `generate + COPY ${n0(l.seconds.generateAndCopy)} s (generator ${n0(l.seconds.generate)} s, ${n0(l.copyMegabytes)} MB), ${Object.entries(
          l.seconds.indexes,
        )
          .map(([k, v]) => `${k} ${n0(v)} s`)
          .join(
            ', ',
          )}, VACUUM ANALYZE ${n0(l.seconds.vacuumAnalyze)} s; ${n0(l.databaseMegabytes)} MB; ${s.database}${s.reused ? `, loaded ${s.loadedAt}` : ''}`,
      ],
      [
        '  index load',
        s.index ? `${n0(s.index.oneTenant.ms)} ms for ${n0(s.index.oneTenant.messages)} messages` : 'not run',
        s.index
          ? `then ${s.index.all.tenants} tenants (${n0(s.index.all.messages)} messages) in ${n0(s.index.all.ms)} ms; indexes ${n0(s.index.indexMB)} MB, retrieval resident ${n0(s.index.rssMB)} MB`
          : '',
      ],
      ['  memory_search (RPC)', ...runCells(s.rpc, 'queries')],
      ['  shell (RPC, no tenant)', ...runCells(s.shell, 'calls')],
      ['  echo (bare NATS)', ...runCells(s.echo, 'calls')],
      ['  echo + one read', ...runCells(s.echoRead, 'calls')],
      ['  floor (bare SQL)', ...runCells(s.floor, 'queries')],
    );
    for (const e of s.explained) {
      const worst = [...e.statements].sort((a, b) => b.executionMs - a.executionMs)[0];
      rows.push([
        `  EXPLAIN (${e.why})`,
        `${e.statements.map((x) => ms(x.executionMs)).join(' + ')}`,
        worst ? `slowest: ${worst.sql.slice(0, 110)}…` : '',
      ]);
    }
    rows.push(['', '', '']);
  }
  const h = searchHeadline(r);
  const t = r.targets;
  rows.push(
    [
      'settings',
      `${r.settings.clients} clients, ${n0(r.settings.queries)} queries`,
      `after ${n0(r.settings.warmup)} warm-up; ${r.settings.queryMix.words.min}–${r.settings.queryMix.words.max} words from a ${n0(r.settings.lexicon.words)}-word Zipf lexicon; agent filter ${r.settings.queryMix.agentFilter * 100} %, date filter ${r.settings.queryMix.dateFilter * 100} %; top ${r.settings.queryMix.topK}`,
    ],
    ['target p95 at 1 M', `≤ ${t.p95Ms} ms`, `${h.p95Ms === null ? '–' : ms(h.p95Ms)}: ${verdict(t.p95Met)}`],
    [
      'target p95 1 M ÷ 100 k',
      `≤ ${t.scaleRatio}`,
      `${h.p95Ms === null || h.p95Ms100k === null ? '–' : (h.p95Ms / h.p95Ms100k).toFixed(2)}: ${verdict(t.scaleMet)}`,
    ],
    [
      'target p95 ÷ shell p95',
      `≤ ${t.shellRatio}`,
      `${h.p95Ms === null || h.shellP95Ms === null ? '–' : (h.p95Ms / h.shellP95Ms).toFixed(2)}: ${verdict(t.shellMet)}`,
    ],
    [
      'target CPU per search at 1 M',
      `≤ ${t.cpuMsPerSearch} ms`,
      `${h.cpuMsPerSearch === null ? '–' : ms(h.cpuMsPerSearch)}: ${verdict(t.cpuMet)}`,
    ],
    [
      'target CPU shell ÷ echo',
      `≤ ${t.shellCpuOverEcho}`,
      `${h.shellCpuMs === null || h.echoCpuMs === null ? '–' : `${ms(h.shellCpuMs)} ÷ ${ms(h.echoCpuMs)} = ${(h.shellCpuMs / h.echoCpuMs).toFixed(2)}`}: ${verdict(t.shellCpuMet)}`,
    ],
    [
      'echo + one read ÷ echo',
      'CPU (the floor under the shell)',
      `${h.echoReadCpuMs === null || h.echoCpuMs === null ? '–' : `${ms(h.echoReadCpuMs)} ÷ ${ms(h.echoCpuMs)} = ${(h.echoReadCpuMs / h.echoCpuMs).toFixed(2)}`}`,
    ],
    [
      'target CPU search ÷ shell',
      `≤ ${t.searchCpuOverShell}`,
      `${h.searchCpuMs === null || h.shellCpuMs === null ? '–' : `${ms(h.searchCpuMs)} ÷ ${ms(h.shellCpuMs)} = ${(h.searchCpuMs / h.shellCpuMs).toFixed(2)}`}: ${verdict(t.searchCpuMet)}`,
    ],
    [
      'target index memory',
      `≤ ${n0(t.indexMBPerMillion)} MB per 1 M messages`,
      `${h.indexMemoryMB === null ? '–' : `${n0(h.indexMemoryMB)} MB`}: ${verdict(t.memoryMet)}`,
    ],
    [
      'machine',
      `${r.machine.cores} × ${r.machine.cpu}`,
      `${r.machine.memoryGiB} GiB, PG ${r.machine.postgres}, pgvector ${r.machine.pgvector}, node ${r.machine.node}, load ${r.machine.loadAverageAtStart} at start`,
    ],
  );
  return renderColumns(rows);
}
