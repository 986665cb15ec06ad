import type { ProfileSummary } from '../profile/cpu-profile-summary';
import type { LatencySummary } from '../measure/latency-stats';
import type { MachineDescription } from '../report/machine';
import { RECALL_KS, type RecallByK, type RecallReport, type RecallSummary } from './recall';

export const CATEGORY_NAMES: Record<string, string> = {
  '1': 'multi-hop',
  '2': 'temporal',
  '3': 'open-domain',
  '4': 'single-hop',
  '5': 'adversarial',
};

/** Published and measured turn-level reference points (the dataset's README). */
export const LOCOMO_REFERENCES: ReadonlyArray<{ readonly name: string; readonly recall: RecallByK }> = [
  {
    name: 'DRAGON dense retriever (paper, all 10 conversations)',
    recall: { '5': 56.7, '10': 66.2, '25': 76.7, '50': 82.7 },
  },
  { name: 'plain BM25 (this split)', recall: { '5': 53.5, '10': 60.0, '25': 67.5, '50': 71.7 } },
  {
    name: 'BM25 + stemming + neighbouring turns (this split)',
    recall: { '5': 64.5, '10': 72.3, '25': 80.5, '50': 84.8 },
  },
];

export const LOCOMO_TARGETS = { '5': 72, '10': 80 } as const;

/** One question as scored: where each of its evidence turns ranked (null: not among the hits). */
export interface ScoredQuestionDetail {
  readonly sampleId: string;
  /** Its index in the conversation's qa list. */
  readonly index: number;
  readonly category: number;
  readonly question: string;
  readonly evidence: readonly string[];
  readonly ranks: ReadonlyArray<number | null>;
  /** The first 10 hits: turn ids for messages of the conversation, "<kind>:<id>" otherwise (to see what outranked the evidence). */
  readonly top: readonly string[];
  readonly hits: number;
  readonly degraded: boolean;
}

/** Everything one `npm run bench:locomo` measured, as written to bench-results/locomo.json. */
export interface LocomoBenchResult {
  readonly benchmark: 'locomo';
  readonly finishedAt: string;
  readonly machine: MachineDescription;
  readonly dataset: {
    readonly file: string;
    readonly sha256: string;
    readonly conversations: number;
    readonly sessions: number;
    readonly turns: number;
    readonly imageTurns: number;
    readonly questions: number;
    /** Questions left out of recall: none of their evidence resolves to an ingested turn. */
    readonly questionsWithoutEvidence: number;
    /** Evidence pieces that did not resolve, as "<sample_id> q<index>: <piece>". */
    readonly unresolvedEvidence: readonly string[];
  };
  readonly settings: {
    readonly tenant: string;
    readonly topK: number;
    readonly concurrency: number;
    readonly services: readonly string[];
    readonly publishWindow: number;
  };
  readonly ingest: {
    /** First publish → last publish acknowledged by JetStream. */
    readonly publishSeconds: number;
    /** First publish → every turn stored as a message. */
    readonly storedSeconds: number;
    /** First publish → every message with a vector. */
    readonly embeddedSeconds: number;
    readonly duplicatePublishes: number;
    readonly publishRetries: number;
  };
  readonly search: {
    readonly requests: number;
    /** Request → reply, measured by the client (NATS round trip included). */
    readonly latency: LatencySummary;
    /** took_ms as the service reported it. */
    readonly serviceTook: LatencySummary;
    readonly degraded: number;
    readonly degradedReasons: Record<string, number>;
    /** Hits over all responses by kind (message, summary, fact). */
    readonly hitsByKind: Record<string, number>;
    readonly meanHits: number;
    /** Answers by what ranked them ("index" or "sql"). */
    readonly answeredBy: Record<string, number>;
    /** From the first search to the first answered by the tenant's index (null: none was). */
    readonly indexLoadMs: number | null;
    /** Where retrieval's CPU went while the questions were asked (--cpu-prof). */
    readonly retrievalProfile?: ProfileSummary;
  };
  readonly recall: RecallSummary;
  readonly byCategory: RecallReport['byCategory'];
  readonly references: typeof LOCOMO_REFERENCES;
  readonly targets: { readonly recall: typeof LOCOMO_TARGETS; readonly met: boolean };
  readonly checks: {
    readonly messages: number;
    readonly expectedMessages: number;
    readonly withVector: number;
    readonly deadLetters: number;
    /** Conversations (sessions) whose stored order differs from the dataset's. */
    readonly sessionsOutOfOrder: number;
  };
  readonly questions: readonly ScoredQuestionDetail[];
}

export interface LocomoHeadline {
  readonly questions: number;
  readonly recall: RecallByK;
  readonly byCategory: Record<string, { readonly questions: number; readonly recall: RecallByK }>;
  /** memory_search latency at the client, at the run's concurrency. */
  readonly searchP50Ms: number;
  readonly searchP95Ms: number;
}

/** The headline: what `--json` prints as the last line of stdout. */
export function locomoHeadline(
  report: RecallReport,
  latency: Pick<LatencySummary, 'p50Ms' | 'p95Ms'>,
): LocomoHeadline {
  return {
    questions: report.overall.questions,
    recall: report.overall.recall,
    byCategory: Object.fromEntries(
      Object.entries(report.byCategory).map(([c, s]) => [c, { questions: s.questions, recall: s.recall }]),
    ),
    searchP50Ms: Math.round(latency.p50Ms * 10) / 10,
    searchP95Ms: Math.round(latency.p95Ms * 10) / 10,
  };
}

export function targetsMet(recall: RecallByK): boolean {
  return Object.entries(LOCOMO_TARGETS).every(([k, target]) => recall[k as keyof RecallByK] >= target);
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** The recall table: Engram overall and per category, beside the reference points and the targets. */
export function renderRecallTable(report: RecallReport): string {
  const row = (name: string, recall: RecallByK | null, questions: string, note = ''): string[] => [
    name,
    ...RECALL_KS.map((k) => (recall ? recall[`${k}`].toFixed(1) : '')),
    questions,
    note,
  ];
  const rows: string[][] = [
    ['recall (% of evidence turns)', ...RECALL_KS.map((k) => `R@${k}`), 'questions', ''],
    row(
      'Engram, all categories',
      report.overall.recall,
      n0(report.overall.questions),
      targetsMet(report.overall.recall) ? 'targets met' : 'targets MISSED',
    ),
    ...Object.entries(report.byCategory).map(([c, s]) =>
      row(`  ${c} ${CATEGORY_NAMES[c] ?? 'other'}`, s.recall, n0(s.questions)),
    ),
    [],
    ...LOCOMO_REFERENCES.map((r) => row(r.name, r.recall, '')),
    ['targets', `≥ ${LOCOMO_TARGETS['5']}`, `≥ ${LOCOMO_TARGETS['10']}`, '', '', '', ''],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r.length === 0
        ? ''
        : r
            .map((cell, i) =>
              i === 0 || i === r.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!),
            )
            .join('  ')
            .trimEnd(),
    )
    .join('\n');
}

/** The whole report: the recall table, then search, ingest, checks and machine. */
export function renderLocomoReport(r: LocomoBenchResult): string {
  const report: RecallReport = { overall: r.recall, byCategory: r.byCategory };
  const lines = [
    renderRecallTable(report),
    '',
    `search     ${n0(r.search.requests)} memory_search requests (topK ${r.settings.topK}, ${r.settings.concurrency} at once): ` +
      `p50 ${ms(r.search.latency.p50Ms)}, p95 ${ms(r.search.latency.p95Ms)} at the client (service took p50 ${ms(r.search.serviceTook.p50Ms)}, p95 ${ms(r.search.serviceTook.p95Ms)})`,
    `           answered by ${Object.entries(r.search.answeredBy)
      .map(([by, n]) => `${by} ${n0(n)}`)
      .join(
        ', ',
      )}${r.search.indexLoadMs === null ? '' : `; the tenant's index answered ${n0(r.search.indexLoadMs)} ms after the first search`}`,
    `           degraded ${n0(r.search.degraded)}${
      Object.keys(r.search.degradedReasons).length
        ? ` (${Object.entries(r.search.degradedReasons)
            .map(([why, n]) => `${why}: ${n}`)
            .join('; ')})`
        : ''
    }; ` +
      `${r.search.meanHits.toFixed(1)} hits per answer (${
        Object.entries(r.search.hitsByKind)
          .map(([k, n]) => `${k} ${n0(n)}`)
          .join(', ') || 'none'
      })`,
    `ingest     ${n0(r.dataset.turns)} turns: published in ${r.ingest.publishSeconds.toFixed(1)} s, stored in ${r.ingest.storedSeconds.toFixed(1)} s, ` +
      `every vector in ${r.ingest.embeddedSeconds.toFixed(1)} s (from the first publish)`,
    `dataset    ${r.dataset.file}: ${r.dataset.conversations} conversations, ${r.dataset.sessions} sessions, ${n0(r.dataset.turns)} turns (${n0(r.dataset.imageTurns)} with a photo), ` +
      `${n0(r.dataset.questions)} questions, ${r.dataset.questionsWithoutEvidence} without resolvable evidence, ${r.dataset.unresolvedEvidence.length} evidence ids skipped`,
    `checks     ${n0(r.checks.messages)}/${n0(r.checks.expectedMessages)} messages, ${n0(r.checks.withVector)} with a vector, ${r.checks.deadLetters} dead letters, ` +
      `${r.checks.sessionsOutOfOrder} sessions out of order`,
    `machine    ${r.machine.cores} × ${r.machine.cpu}, ${r.machine.memoryGiB} GiB, PG ${r.machine.postgres}, pgvector ${r.machine.pgvector}, node ${r.machine.node}`,
  ];
  return lines.join('\n');
}
