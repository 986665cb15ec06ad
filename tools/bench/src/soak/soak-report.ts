import type { LatencySlice, LatencySummary } from '../measure/latency-stats';
import { renderColumns, type ReportRow } from '../report/columns';
import type { MachineDescription } from '../report/machine';
import type { SoakChart } from './soak-chart';
import { furthestFromZero, type P95Drift } from './soak-figures';

/** One round of readings, `tS` seconds after the load began. */
export interface SoakSample {
  readonly tS: number;
  /** Resident memory (VmRSS) of each service process, MB; absent once a process is gone. */
  readonly rssMB: Record<string, number>;
  /** What retrieval's in-memory search indexes hold (engram_search_index_bytes), MB. */
  readonly retrievalIndexMB: number;
  /** Messages pending or unacknowledged over every durable consumer. */
  readonly backlog: number;
  /** Messages in the store (the conversations' message counts). */
  readonly storedMessages: number;
}

/** A service's resident memory over the run. */
export interface ServiceMemory {
  readonly name: string;
  readonly firstMB: number;
  readonly lastMB: number;
  readonly maxMB: number;
  /** Least-squares slope of its resident memory after the warm-up. */
  readonly slopeMBPerHour: number;
  /**
   * The slope that counts for the headline: retrieval's resident memory less what its search
   * indexes hold (they grow with the data, by design, up to RETRIEVAL_INDEX_MEMORY_MB); the others'
   * resident memory as it is.
   */
  readonly headlineSlopeMBPerHour: number;
}

/** The calls of one kind (searches, context builds) over the run. */
export interface CallSeries {
  readonly perSecond: number;
  readonly sent: number;
  readonly failed: number;
  readonly errors: Record<string, number>;
  /** Due while the most allowed were out: not sent. */
  readonly skipped: number;
  readonly afterWarmup: LatencySummary;
  readonly windows: readonly LatencySlice[];
  readonly drift: P95Drift | null;
}

/** The headline: the last line of stdout. */
export interface SoakHeadline {
  readonly minutes: number;
  readonly rssSlopeMBPerHour: number;
  readonly p95DriftPct: number | null;
}

export interface SoakBenchResult {
  readonly benchmark: 'soak';
  readonly finishedAt: string;
  readonly machine: MachineDescription;
  readonly settings: {
    readonly minutes: number;
    readonly warmupMinutes: number;
    readonly messagesPerSecond: number;
    readonly searchesPerSecond: number;
    readonly buildsPerSecond: number;
    readonly sampleSeconds: number;
    readonly windowSeconds: number;
    readonly maxInFlight: number;
    readonly seed: number;
    readonly corpus: {
      readonly tenants: number;
      readonly agentsPerTenant: number;
      readonly conversations: number;
    };
    readonly logLevel: string;
  };
  readonly ingest: {
    readonly publishedTurns: number;
    readonly publishedMessages: number;
    readonly messagesPerSecond: number;
    readonly storedMessages: number;
    /** Seconds after the load stopped until every consumer had nothing pending (null: not within the wait). */
    readonly drainedAfterSeconds: number | null;
    readonly deadLetters: number;
  };
  readonly samples: readonly SoakSample[];
  readonly services: readonly ServiceMemory[];
  readonly retrievalIndexSlopeMBPerHour: number;
  readonly search: CallSeries;
  readonly contextBuild: CallSeries;
  readonly headline: SoakHeadline;
  readonly chart: string;
  /**
   * What each service logged at `--log-level` (warn by default), its last lines: why retrieval
   * loaded an index again, which consumer retried, what a step in the memory chart coincides with.
   */
  readonly serviceLogs: Record<string, readonly string[]>;
}

/**
 * rssSlopeMBPerHour: the headline slope furthest from 0 over the services; p95DriftPct: the drift
 * furthest from 0 of searches and context builds (null when neither had two whole windows after the warm-up).
 */
export function soakHeadline(
  minutes: number,
  services: readonly ServiceMemory[],
  series: readonly CallSeries[],
): SoakHeadline {
  const drifts = series.flatMap((s) => (s.drift ? [s.drift.driftPct] : []));
  return {
    minutes,
    rssSlopeMBPerHour: furthestFromZero(services.map((s) => s.headlineSlopeMBPerHour)),
    p95DriftPct: drifts.length ? furthestFromZero(drifts) : null,
  };
}

const at = (tS: number) => tS / 60;

/** The chart of a run: resident memory per service, p95 (and p50) per window, the consumers' backlog. */
export function soakChart(r: SoakBenchResult): SoakChart {
  const s = r.settings;
  const windowPoints = (series: CallSeries, pick: (w: LatencySlice) => number) =>
    series.windows.map((w) => ({ x: at((w.fromS + w.toS) / 2), y: pick(w) }));
  return {
    title: `Engram soak, ${s.minutes} min`,
    notes: [
      `${s.messagesPerSecond} messages/s ingested, ${s.searchesPerSecond} searches/s and ${s.buildsPerSecond} context builds/s; warm-up ${s.warmupMinutes} min (shaded), samples every ${s.sampleSeconds} s, latency windows of ${s.windowSeconds} s.`,
      `rssSlopeMBPerHour ${r.headline.rssSlopeMBPerHour} (largest after warm-up; retrieval less its search index), p95DriftPct ${r.headline.p95DriftPct ?? 'n/a'} (first → last window after warm-up).`,
      `${r.machine.cores} × ${r.machine.cpu}, load ${r.machine.loadAverageAtStart} at start; finished ${r.finishedAt}.`,
    ],
    minutes: s.minutes,
    warmupMinutes: s.warmupMinutes,
    panels: [
      {
        title: 'Resident memory per service (VmRSS)',
        unit: 'MB',
        series: [
          ...r.services.map((svc) => ({
            name: svc.name,
            points: r.samples.flatMap((x) =>
              x.rssMB[svc.name] === undefined ? [] : [{ x: at(x.tS), y: x.rssMB[svc.name]! }],
            ),
          })),
          {
            name: 'retrieval index',
            dashed: true,
            points: r.samples.map((x) => ({ x: at(x.tS), y: x.retrievalIndexMB })),
          },
        ],
      },
      {
        title: `Latency per ${s.windowSeconds} s window (p95; p50 dashed)`,
        unit: 'ms',
        series: [
          { name: 'search p95', points: windowPoints(r.search, (w) => w.p95Ms) },
          { name: 'context build p95', points: windowPoints(r.contextBuild, (w) => w.p95Ms) },
          { name: 'search p50', dashed: true, points: windowPoints(r.search, (w) => w.p50Ms) },
          { name: 'context build p50', dashed: true, points: windowPoints(r.contextBuild, (w) => w.p50Ms) },
        ],
      },
      {
        title: 'Consumer backlog (pending + unacknowledged)',
        unit: 'messages',
        series: [{ name: 'backlog', points: r.samples.map((x) => ({ x: at(x.tS), y: x.backlog })) }],
      },
    ],
  };
}

const mb = (x: number) => `${Math.round(x)} MB`;
const signed = (x: number) => `${x > 0 ? '+' : ''}${x}`;

function callRows(label: string, c: CallSeries): ReportRow[] {
  const drift = c.drift
    ? `p95 ${c.drift.firstWindow.p95Ms} → ${c.drift.lastWindow.p95Ms} ms (${signed(c.drift.driftPct)} %)`
    : 'fewer than two whole windows after the warm-up';
  return [
    [
      label,
      `p95 ${c.afterWarmup.p95Ms} ms after warm-up`,
      `${c.sent} sent at ${c.perSecond}/s, ${c.failed} failed${c.failed ? ` ${JSON.stringify(c.errors)}` : ''}, ${c.skipped} skipped; p50 ${c.afterWarmup.p50Ms} ms`,
    ],
    ['  drift', drift, ''],
  ];
}

/** A readable table of the run. */
export function renderSoakTable(r: SoakBenchResult): string {
  const rows: ReportRow[] = [
    [
      'load',
      `${r.settings.minutes} min, warm-up ${r.settings.warmupMinutes} min`,
      `${r.settings.messagesPerSecond} messages/s, ${r.settings.searchesPerSecond} searches/s, ${r.settings.buildsPerSecond} builds/s`,
    ],
    [
      'ingest',
      `${r.ingest.publishedMessages} messages published (${r.ingest.messagesPerSecond}/s)`,
      `${r.ingest.storedMessages} stored; drained ${r.ingest.drainedAfterSeconds === null ? 'NOT within the wait' : `${r.ingest.drainedAfterSeconds} s after the load`}; ${r.ingest.deadLetters} dead letters`,
    ],
    ['', '', ''],
    ['resident memory', 'slope after warm-up', 'first → last reading'],
    ...r.services.map((s): ReportRow => [
      `  ${s.name}`,
      `${signed(s.slopeMBPerHour)} MB/h`,
      `${mb(s.firstMB)} → ${mb(s.lastMB)} (max ${mb(s.maxMB)})${s.headlineSlopeMBPerHour !== s.slopeMBPerHour ? `; less its index ${signed(s.headlineSlopeMBPerHour)} MB/h` : ''}`,
    ]),
    ['  retrieval index', `${signed(r.retrievalIndexSlopeMBPerHour)} MB/h`, ''],
    ['', '', ''],
    ...callRows('search', r.search),
    ...callRows('context build', r.contextBuild),
    ['', '', ''],
    [
      'headline',
      `rssSlopeMBPerHour ${r.headline.rssSlopeMBPerHour}`,
      `p95DriftPct ${r.headline.p95DriftPct ?? 'n/a'}`,
    ],
    [
      'machine',
      `${r.machine.cores} × ${r.machine.cpu}`,
      `load ${r.machine.loadAverageAtStart} at start; chart ${r.chart}`,
    ],
  ];
  return renderColumns(rows);
}
