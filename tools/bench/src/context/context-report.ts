import { renderColumns, type ReportRow } from '../report/columns';
import type { MachineDescription } from '../report/machine';
import type { ClosedLoopRun } from '../search/closed-loop';
import type { QueryMix } from '../search/query-generator';
import { latencyRun, type IndexWarmUp } from '../search/measure-search';
import { runCells, type LatencyRun } from '../search/search-report';

export const CONTEXT_TARGETS = {
  /** p95 of mem.rpc.context.build at 1 M messages, client side, retrieval included. */
  p95Ms: 30,
} as const;

/** What a context build answered, as far as the report counts it. */
export interface BuildAnswer {
  readonly degradedReason?: string;
  readonly totalTokens: number;
  /** Memory hits in the prompt (source ids of the memory layer). */
  readonly memoryHits: number;
  /** Recent messages in the prompt. */
  readonly recentMessages: number;
  readonly skills: boolean;
  readonly cutLayers: number;
}

/** A closed-loop run of context builds: the latencies, and what the prompts held on average. */
export interface BuildRun extends LatencyRun {
  readonly meanTotalTokens: number;
  readonly meanMemoryHits: number;
  readonly meanRecentMessages: number;
  /** Prompts in which at least one skill was triggered. */
  readonly withSkills: number;
  /** Prompts that left something out for the budget. */
  readonly withCuts: number;
}

export interface ContextBenchResult {
  readonly benchmark: 'context';
  readonly finishedAt: string;
  readonly machine: MachineDescription;
  /** 1-minute load average when the measurements ended (other work on the machine skews them). */
  readonly loadAverageAtEnd: number;
  readonly settings: {
    readonly clients: number;
    readonly queries: number;
    readonly warmup: number;
    readonly searchQueries: number;
    readonly seed: number;
    readonly queryMix: QueryMix;
    readonly lexicon: { readonly words: number; readonly zipfExponent: number };
    readonly corpusVersion: number;
    readonly now: string;
    readonly memoryHits: number;
    readonly env: Record<string, Record<string, string>>;
    readonly logLevel: string;
  };
  readonly corpus: {
    readonly label: string;
    readonly database: string;
    readonly reused: boolean;
    readonly loadedAt: string;
    readonly messages: number;
    readonly tenants: number;
    readonly conversations: number;
    readonly facts: number;
    readonly vectors: number;
  };
  readonly seeded: {
    readonly agents: number;
    readonly documents: number;
    readonly skills: number;
    readonly stickyFacts: number;
    readonly seconds: number;
  };
  /** Loading every tenant's search index in retrieval before the builds. */
  readonly indexes: IndexWarmUp;
  /** `clients` at a time, and one at a time. */
  readonly builds: { readonly concurrent: BuildRun; readonly serial: BuildRun };
  /** mem.rpc.search as context building asks it, for the same messages: how much of a build is retrieval. */
  readonly retrieval: { readonly concurrent: LatencyRun; readonly serial: LatencyRun } | null;
  readonly targets: typeof CONTEXT_TARGETS & { readonly p95Met: boolean | null };
}

/** What `--json` prints as the last line of stdout: exactly these two keys (null: calls failed). */
export interface ContextHeadline {
  p50Ms: number | null;
  p95Ms: number | null;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** The latencies of the calls that succeeded, the errors of the others, and the degraded answers. */
export function latencyRunOf<R>(
  run: ClosedLoopRun<R>,
  degradedReason: (value: R) => string | undefined,
): LatencyRun {
  return latencyRun(run, (value) => {
    const reason = degradedReason(value);
    return reason === undefined ? {} : { degradedReason: reason };
  });
}

export function buildRunOf(run: ClosedLoopRun<BuildAnswer>): BuildRun {
  const answers = run.outcomes.filter((o) => o.error === undefined).map((o) => o.value!);
  return {
    ...latencyRunOf(run, (a) => a.degradedReason),
    meanTotalTokens: Math.round(mean(answers.map((a) => a.totalTokens))),
    meanMemoryHits: Math.round(mean(answers.map((a) => a.memoryHits)) * 10) / 10,
    meanRecentMessages: Math.round(mean(answers.map((a) => a.recentMessages)) * 10) / 10,
    withSkills: answers.filter((a) => a.skills).length,
    withCuts: answers.filter((a) => a.cutLayers > 0).length,
  };
}

/** Only a run in which every call succeeded has a latency worth reporting. */
const clean = (run: LatencyRun | null | undefined) =>
  run && run.calls > 0 && run.latency.count === run.calls ? run.latency : null;

export function contextHeadline(result: Pick<ContextBenchResult, 'builds'>): ContextHeadline {
  const l = clean(result.builds.concurrent);
  return { p50Ms: l?.p50Ms ?? null, p95Ms: l?.p95Ms ?? null };
}

export function contextTargets(headline: ContextHeadline): ContextBenchResult['targets'] {
  return {
    ...CONTEXT_TARGETS,
    p95Met: headline.p95Ms === null ? null : headline.p95Ms <= CONTEXT_TARGETS.p95Ms,
  };
}

/** Retrieval's p95 as a share of the build's p95 at the same concurrency (null: not measured). */
export function retrievalShare(builds: LatencyRun, retrieval: LatencyRun | undefined): number | null {
  const b = clean(builds);
  const r = clean(retrieval);
  return b && r && b.p95Ms > 0 ? Math.round((r.p95Ms / b.p95Ms) * 100) / 100 : null;
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => `${x.toFixed(1)} ms`;

function buildCells(run: BuildRun): [string, string] {
  const [head, rest] = runCells(run, 'builds');
  const answered = run.latency.count || 1;
  const pct = (n: number) => `${Math.round((100 * n) / answered)} %`;
  return [
    head,
    `${rest}; mean ${n0(run.meanTotalTokens)} tokens, ${run.meanMemoryHits} memory hits, ${run.meanRecentMessages} recent messages; skills in ${pct(run.withSkills)}, cuts in ${pct(run.withCuts)}`,
  ];
}

/** A readable table of the figures. */
export function renderContextTable(r: ContextBenchResult): string {
  const c = r.corpus;
  const s = r.seeded;
  const k = r.settings.clients;
  const rows: ReportRow[] = [
    [
      `${c.label}: corpus`,
      `${n0(c.messages)} messages`,
      `${c.tenants} tenants, ${n0(c.conversations)} conversations, ${n0(c.facts)} facts, ${n0(c.vectors)} vectors; ${c.database}${c.reused ? `, loaded ${c.loadedAt}` : ' (loaded by this run)'}`,
    ],
    [
      '  seeded',
      `${n0(s.agents)} agents`,
      `${n0(s.documents)} workspace documents, ${n0(s.skills)} skills, ${n0(s.stickyFacts)} sticky facts of theirs in the corpus; ${s.seconds.toFixed(1)} s`,
    ],
    [`  context.build, ${k} clients`, ...buildCells(r.builds.concurrent)],
    ['  context.build, serial', ...buildCells(r.builds.serial)],
  ];
  if (r.retrieval) {
    const share = (b: LatencyRun, x: LatencyRun) => {
      const v = retrievalShare(b, x);
      return v === null ? '' : `; ${Math.round(v * 100)} % of the build's p95`;
    };
    const [h1, d1] = runCells(r.retrieval.concurrent, 'searches');
    const [h2, d2] = runCells(r.retrieval.serial, 'searches');
    rows.push([
      `  retrieval alone, ${k} clients`,
      h1,
      `${d1}${share(r.builds.concurrent, r.retrieval.concurrent)}`,
    ]);
    rows.push(['  retrieval alone, serial', h2, `${d2}${share(r.builds.serial, r.retrieval.serial)}`]);
  }
  const h = contextHeadline(r);
  const t = r.targets;
  const verdict =
    t.p95Met === null || h.p95Ms === null
      ? 'not measured'
      : t.p95Met
        ? `met (${ms(t.p95Ms - h.p95Ms)} to spare)`
        : `MISSED by ${ms(h.p95Ms - t.p95Ms)}`;
  rows.push(
    ['', '', ''],
    [
      'settings',
      `${k} clients, ${n0(r.settings.queries)} builds`,
      `after ${n0(r.settings.warmup)} warm-up; ${n0(r.settings.searchQueries)} searches; messages of ${r.settings.queryMix.words.min}–${r.settings.queryMix.words.max} corpus words; ${r.settings.memoryHits} memory hits asked; now ${r.settings.now}`,
    ],
    [
      `target p95 at ${c.label}, ${k} clients`,
      `≤ ${t.p95Ms} ms`,
      `${h.p95Ms === null ? '–' : ms(h.p95Ms)}: ${verdict}`,
    ],
    [
      'machine',
      `${r.machine.cores} × ${r.machine.cpu}`,
      `${r.machine.memoryGiB} GiB, PG ${r.machine.postgres}, pgvector ${r.machine.pgvector}, node ${r.machine.node}, load ${r.machine.loadAverageAtStart} at start, ${r.loadAverageAtEnd} at end`,
    ],
  );
  return renderColumns(rows);
}
