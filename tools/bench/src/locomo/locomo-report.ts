import type { LatencySummary } from '../measure/latency-stats';
import type { MissesByReach } from '../measure/shared-words';
import { pickMeasures, summariseStandard, type StandardSummary } from '../measure/standard-recall';
import type { MachineDescription } from '../report/machine';
import { renderAligned, renderReach, renderRunLines, renderStandardTable } from '../report/recall-report';
import type { SearchFigures } from '../run/ask-questions';
import type { IngestFigures, RecallBenchSettings } from '../run/retrieval-stack';
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

/** The standard measures at turn level, at these k. */
export const STANDARD_KS = [5, 10, 25, 50] as const;
/** What the headline and the tables show of them. */
export const HEADLINE_MEASURES = ['any@5', 'any@10', 'all@5', 'all@10', 'ndcg@10'] as const;

/** Published standard figures, categories 1–4 (the field leaves adversarial questions out). */
export const LOCOMO_STANDARD_REFERENCES: ReadonlyArray<{
  readonly name: string;
  readonly summary: StandardSummary;
}> = [
  {
    name: 'uteke 0.17, fusion, transformer embeddings (all 10 conversations)',
    summary: { 'any@5': 84.0, 'any@10': 93.9, 'all@5': 71.6, 'all@10': 85.0 },
  },
];

/** Issue 30's targets in standard measures: categories 1–4, and temporal questions. */
export const LOCOMO_STANDARD_TARGETS = {
  categories1to4: { 'any@10': 90, 'all@10': 80 },
  temporal: { 'any@10': 88 },
} as const;

/** Standard measures at turn level: every question, categories 1–4, and each category. */
export interface LocomoStandard {
  readonly all: StandardSummary;
  readonly categories1to4: StandardSummary;
  readonly byCategory: Record<string, StandardSummary>;
}

/** The standard measures of scored questions (the ranks of their evidence turns). */
export function locomoStandard(
  questions: ReadonlyArray<Pick<ScoredQuestionDetail, 'category' | 'ranks'>>,
): LocomoStandard {
  const of = (qs: typeof questions) =>
    summariseStandard(
      qs.map((q) => q.ranks),
      STANDARD_KS,
    );
  const categories = [...new Set(questions.map((q) => q.category))].sort((a, b) => a - b);
  return {
    all: of(questions),
    categories1to4: of(questions.filter((q) => q.category >= 1 && q.category <= 4)),
    byCategory: Object.fromEntries(
      categories.map((c) => [String(c), of(questions.filter((q) => q.category === c))]),
    ),
  };
}

/** Whether the standard targets hold (categories 1–4, and temporal). */
export function standardTargetsMet(standard: LocomoStandard): boolean {
  const met = (summary: StandardSummary | undefined, targets: Record<string, number>) =>
    !!summary && Object.entries(targets).every(([m, t]) => (summary[m] ?? 0) >= t);
  return (
    met(standard.categories1to4, LOCOMO_STANDARD_TARGETS.categories1to4) &&
    met(standard.byCategory['2'], LOCOMO_STANDARD_TARGETS.temporal)
  );
}

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
  /** Some evidence turn, or the turn before it, holds one of the question's content words. */
  readonly sharesWords: boolean;
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
  readonly settings: RecallBenchSettings & {
    /** "last-session": each question asked as of the day after its conversation's last session; "now": as of the run. */
    readonly asOf: 'last-session' | 'now';
  };
  readonly ingest: IngestFigures;
  readonly search: SearchFigures;
  readonly recall: RecallSummary;
  readonly byCategory: RecallReport['byCategory'];
  readonly references: typeof LOCOMO_REFERENCES;
  readonly standard: LocomoStandard;
  /** Categories 1–4: misses at 10, and how many of them full text could not reach. */
  readonly reach: MissesByReach;
  readonly targets: {
    readonly recall: typeof LOCOMO_TARGETS;
    readonly met: boolean;
    readonly standard: typeof LOCOMO_STANDARD_TARGETS;
    readonly standardMet: boolean;
  };
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
  /** Turn-level standard measures: every question, and categories 1–4. */
  readonly standard: { readonly all: StandardSummary; readonly categories1to4: StandardSummary };
  /** memory_search latency at the client, at the run's concurrency. */
  readonly searchP50Ms: number;
  readonly searchP95Ms: number;
}

/** The headline: what `--json` prints as the last line of stdout. */
export function locomoHeadline(
  report: RecallReport,
  standard: Pick<LocomoStandard, 'all' | 'categories1to4'>,
  latency: Pick<LatencySummary, 'p50Ms' | 'p95Ms'>,
): LocomoHeadline {
  return {
    questions: report.overall.questions,
    recall: report.overall.recall,
    byCategory: Object.fromEntries(
      Object.entries(report.byCategory).map(([c, s]) => [c, { questions: s.questions, recall: s.recall }]),
    ),
    standard: {
      all: pickMeasures(standard.all, HEADLINE_MEASURES),
      categories1to4: pickMeasures(standard.categories1to4, HEADLINE_MEASURES),
    },
    searchP50Ms: Math.round(latency.p50Ms * 10) / 10,
    searchP95Ms: Math.round(latency.p95Ms * 10) / 10,
  };
}

export function targetsMet(recall: RecallByK): boolean {
  return Object.entries(LOCOMO_TARGETS).every(([k, target]) => recall[k as keyof RecallByK] >= target);
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');

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
  return renderAligned(rows);
}

/** The standard measures: categories 1–4 beside the published figures, every question, each category, the targets. */
export function renderLocomoStandardTable(
  standard: LocomoStandard,
  questions: Record<string, number>,
): string {
  const targets = LOCOMO_STANDARD_TARGETS;
  return renderStandardTable('standard measures, turn level (%)', HEADLINE_MEASURES, [
    {
      name: 'Engram, categories 1–4',
      summary: standard.categories1to4,
      questions: n0(questions['1to4'] ?? 0),
    },
    ...Object.entries(standard.byCategory).map(([c, summary]) => ({
      name: `  ${c} ${CATEGORY_NAMES[c] ?? 'other'}`,
      summary,
      questions: n0(questions[c] ?? 0),
    })),
    { name: 'Engram, all categories', summary: standard.all, questions: n0(questions['all'] ?? 0) },
    { name: '', summary: null, questions: '' },
    ...LOCOMO_STANDARD_REFERENCES.map((r) => ({ name: r.name, summary: r.summary, questions: '' })),
    {
      name: 'targets, categories 1–4',
      summary: null,
      questions: '',
      note: `any@10 ≥ ${targets.categories1to4['any@10']}, all@10 ≥ ${targets.categories1to4['all@10']}; temporal any@10 ≥ ${targets.temporal['any@10']}: ${standardTargetsMet(standard) ? 'met' : 'MISSED'}`,
    },
  ]);
}

/** The whole report: the recall tables, then search, ingest, checks and machine. */
export function renderLocomoReport(r: LocomoBenchResult): string {
  const report: RecallReport = { overall: r.recall, byCategory: r.byCategory };
  const questions: Record<string, number> = {
    all: r.recall.questions,
    '1to4': Object.entries(r.byCategory)
      .filter(([c]) => Number(c) <= 4)
      .reduce((n, [, s]) => n + s.questions, 0),
    ...Object.fromEntries(Object.entries(r.byCategory).map(([c, s]) => [c, s.questions])),
  };
  const lines = [
    renderRecallTable(report),
    '',
    renderLocomoStandardTable(r.standard, questions),
    renderReach(r.reach, 'categories 1–4'),
    '',
    ...renderRunLines({
      search: r.search,
      topK: r.settings.topK,
      concurrency: r.settings.concurrency,
      turns: r.dataset.turns,
      ingest: r.ingest,
    }),
    `dataset    ${r.dataset.file}: ${r.dataset.conversations} conversations, ${r.dataset.sessions} sessions, ${n0(r.dataset.turns)} turns (${n0(r.dataset.imageTurns)} with a photo), ` +
      `${n0(r.dataset.questions)} questions, ${r.dataset.questionsWithoutEvidence} without resolvable evidence, ${r.dataset.unresolvedEvidence.length} evidence ids skipped`,
    `asked as   ${r.settings.asOf === 'last-session' ? "of the day after each conversation's last session" : 'of now'}`,
    `checks     ${n0(r.checks.messages)}/${n0(r.checks.expectedMessages)} messages, ${n0(r.checks.withVector)} with a vector, ${r.checks.deadLetters} dead letters, ` +
      `${r.checks.sessionsOutOfOrder} sessions out of order`,
    `machine    ${r.machine.cores} × ${r.machine.cpu}, ${r.machine.memoryGiB} GiB, PG ${r.machine.postgres}, pgvector ${r.machine.pgvector}, node ${r.machine.node}`,
  ];
  return lines.join('\n');
}
