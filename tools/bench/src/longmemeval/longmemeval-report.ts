import type { LatencySummary } from '../measure/latency-stats';
import type { MissesByReach } from '../measure/shared-words';
import { pickMeasures, summariseStandard, type StandardSummary } from '../measure/standard-recall';
import type { MachineDescription } from '../report/machine';
import { renderReach, renderRunLines, renderStandardTable, type StandardRow } from '../report/recall-report';
import type { SearchFigures } from '../run/ask-questions';
import type { IngestFigures, RecallBenchSettings } from '../run/retrieval-stack';
import { QUESTION_TYPES } from './longmemeval-file';

/** Turn level at these k, session level at the first two. */
export const TURN_KS = [5, 10, 25, 50] as const;
export const SESSION_KS = [5, 10] as const;

/** What the headline gives of each level. */
export const TURN_HEADLINE = ['any@5', 'any@10', 'all@10', 'ndcg@10'] as const;
export const SESSION_HEADLINE = ['any@5', 'any@10', 'ndcg@10'] as const;

/** Published session-level figures on all 500 questions of LongMemEval-S (each system's own report). */
export const LONGMEMEVAL_REFERENCES: ReadonlyArray<{
  readonly name: string;
  readonly session: StandardSummary;
}> = [
  { name: 'a lexical engine (hit@5)', session: { 'any@5': 97.4 } },
  { name: 'hybrid BM25 + MiniLM', session: { 'any@5': 95.2, 'any@10': 98.6, 'ndcg@10': 87.9 } },
  { name: 'hybrid FTS + nomic-embed', session: { 'any@5': 92.3 } },
];

/** Issue 30's targets. */
export const LONGMEMEVAL_TARGETS = {
  session: { 'any@5': 97 },
  turn: { 'any@10': 92, 'all@10': 75 },
  preference: { 'any@5': 70 },
} as const;

/** One question as scored: where its evidence turns and sessions first ranked (null: not among the hits). */
export interface LongMemEvalQuestionDetail {
  readonly id: string;
  readonly type: string;
  readonly question: string;
  /** The moment it was asked as of (ISO), or null when asked as of now. */
  readonly asOf: string | null;
  /** Ranks of its has_answer turns (empty: it has none, and is left out at turn level). */
  readonly turnRanks: ReadonlyArray<number | null>;
  /** Ranks of its answer sessions, sessions ranked by their best hit. */
  readonly sessionRanks: ReadonlyArray<number | null>;
  /** Some evidence turn, or the turn before it, holds one of the question's content words. */
  readonly sharesWords: boolean;
  /** Evidence turns said after the moment it was asked as of: no search as of then can find them. */
  readonly evidenceAfterAsOf: number;
  /** The first 10 hits: turn ids, or "<kind>:<id>" for what is not a turn of its haystack. */
  readonly top: readonly string[];
  readonly hits: number;
  readonly degraded: boolean;
}

/** Standard measures at both levels, over the questions that have evidence at that level. */
export interface LevelMeasures {
  readonly turnQuestions: number;
  readonly turn: StandardSummary;
  readonly sessionQuestions: number;
  readonly session: StandardSummary;
}

export function levelMeasures(
  questions: ReadonlyArray<Pick<LongMemEvalQuestionDetail, 'turnRanks' | 'sessionRanks'>>,
): LevelMeasures {
  const turn = questions.filter((q) => q.turnRanks.length > 0).map((q) => q.turnRanks);
  const session = questions.filter((q) => q.sessionRanks.length > 0).map((q) => q.sessionRanks);
  return {
    turnQuestions: turn.length,
    turn: summariseStandard(turn, TURN_KS),
    sessionQuestions: session.length,
    session: summariseStandard(session, SESSION_KS),
  };
}

/** Overall and per question type (in the release's order of types, those present). */
export function measuresByType(questions: readonly LongMemEvalQuestionDetail[]): {
  overall: LevelMeasures;
  byType: Record<string, LevelMeasures>;
} {
  const types = QUESTION_TYPES.filter((t) => questions.some((q) => q.type === t));
  return {
    overall: levelMeasures(questions),
    byType: Object.fromEntries(types.map((t) => [t, levelMeasures(questions.filter((q) => q.type === t))])),
  };
}

export function targetsMet(overall: LevelMeasures, byType: Record<string, LevelMeasures>): boolean {
  const t = LONGMEMEVAL_TARGETS;
  const preference = byType['single-session-preference'];
  return (
    (overall.session['any@5'] ?? 0) >= t.session['any@5'] &&
    (overall.turn['any@10'] ?? 0) >= t.turn['any@10'] &&
    (overall.turn['all@10'] ?? 0) >= t.turn['all@10'] &&
    (!preference || (preference.turn['any@5'] ?? 0) >= t.preference['any@5'])
  );
}

/** Everything one `npm run bench:longmemeval` measured, as written to bench-results/longmemeval.json. */
export interface LongMemEvalBenchResult {
  readonly benchmark: 'longmemeval';
  readonly finishedAt: string;
  readonly machine: MachineDescription;
  readonly dataset: {
    readonly file: string;
    readonly sha256: string;
    readonly questions: number;
    readonly abstention: number;
    readonly sessions: number;
    readonly turns: number;
    /** Turns with empty content: not published. */
    readonly emptyTurns: number;
    /** Scored questions without has_answer turns: measured at session level only. */
    readonly withoutTurnEvidence: number;
    /** Scored questions with evidence turns dated after the question (asked as of its date, they cannot be found). */
    readonly evidenceAfterQuestion: number;
  };
  readonly settings: RecallBenchSettings & {
    /** "question": each question asked as of its question_date; "now": as of the run. */
    readonly asOf: 'question' | 'now';
  };
  readonly ingest: IngestFigures;
  readonly search: SearchFigures;
  readonly overall: LevelMeasures;
  readonly byType: Record<string, LevelMeasures>;
  /** Turn level: misses at 10, and how many of them full text could not reach. */
  readonly reach: MissesByReach;
  /**
   * The measures without the questions whose evidence is dated after the moment they are asked
   * as of (the release dates some sessions later on the question's own day): what ranking gets
   * of what a point-in-time search may find. Null when there are none.
   */
  readonly withoutLateEvidence: LevelMeasures | null;
  readonly references: typeof LONGMEMEVAL_REFERENCES;
  readonly targets: typeof LONGMEMEVAL_TARGETS & { readonly met: boolean };
  readonly checks: {
    readonly messages: number;
    readonly expectedMessages: number;
    readonly deadLetters: number;
  };
  readonly questions: readonly LongMemEvalQuestionDetail[];
}

export interface LongMemEvalHeadline {
  readonly questions: number;
  readonly turn: StandardSummary;
  readonly session: StandardSummary;
  readonly byType: Record<
    string,
    { readonly questions: number; readonly turn: StandardSummary; readonly session: StandardSummary }
  >;
  readonly searchP50Ms: number;
  readonly searchP95Ms: number;
}

/** What `--json` prints as the last line of stdout. */
export function longMemEvalHeadline(
  measures: { overall: LevelMeasures; byType: Record<string, LevelMeasures> },
  latency: Pick<LatencySummary, 'p50Ms' | 'p95Ms'>,
): LongMemEvalHeadline {
  const pick = (m: LevelMeasures) => ({
    turn: pickMeasures(m.turn, TURN_HEADLINE),
    session: pickMeasures(m.session, SESSION_HEADLINE),
  });
  return {
    questions: measures.overall.sessionQuestions,
    ...pick(measures.overall),
    byType: Object.fromEntries(
      Object.entries(measures.byType).map(([type, m]) => [
        type,
        { questions: m.sessionQuestions, ...pick(m) },
      ]),
    ),
    searchP50Ms: Math.round(latency.p50Ms * 10) / 10,
    searchP95Ms: Math.round(latency.p95Ms * 10) / 10,
  };
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const TURN_TABLE = ['any@5', 'any@10', 'any@25', 'any@50', 'all@10', 'ndcg@10'] as const;
const SESSION_TABLE = ['any@5', 'any@10', 'all@10', 'ndcg@10'] as const;

/** The turn-level and session-level tables: overall, per type, the published figures, the targets. */
export function renderLongMemEvalTables(
  overall: LevelMeasures,
  byType: Record<string, LevelMeasures>,
): string {
  const rows = (level: 'turn' | 'session'): StandardRow[] => {
    const count = (m: LevelMeasures) => n0(level === 'turn' ? m.turnQuestions : m.sessionQuestions);
    return [
      { name: 'Engram, every type', summary: overall[level], questions: count(overall) },
      ...Object.entries(byType).map(([type, m]) => ({
        name: `  ${type}`,
        summary: m[level],
        questions: count(m),
      })),
    ];
  };
  const t = LONGMEMEVAL_TARGETS;
  return [
    renderStandardTable('turn level (%)', TURN_TABLE, [
      ...rows('turn'),
      {
        name: 'targets',
        summary: null,
        questions: '',
        note: `any@10 ≥ ${t.turn['any@10']}, all@10 ≥ ${t.turn['all@10']}; single-session-preference any@5 ≥ ${t.preference['any@5']}`,
      },
    ]),
    '',
    renderStandardTable('session level (%), sessions ranked by their best hit', SESSION_TABLE, [
      ...rows('session'),
      { name: '', summary: null, questions: '' },
      ...LONGMEMEVAL_REFERENCES.map((r) => ({
        name: `${r.name}, all 500`,
        summary: r.session,
        questions: '',
      })),
      { name: 'target', summary: null, questions: '', note: `any@5 ≥ ${t.session['any@5']}` },
    ]),
  ].join('\n');
}

export function renderLongMemEvalReport(r: LongMemEvalBenchResult): string {
  return [
    renderLongMemEvalTables(r.overall, r.byType),
    `targets    ${r.targets.met ? 'met' : 'MISSED'}`,
    renderReach(r.reach, 'turn level'),
    ...(r.withoutLateEvidence
      ? [
          `late       without the ${r.overall.sessionQuestions - r.withoutLateEvidence.sessionQuestions} question(s) whose evidence is dated after the moment asked: ` +
            `turn any@10 ${r.withoutLateEvidence.turn['any@10']}, all@10 ${r.withoutLateEvidence.turn['all@10']}; ` +
            `session any@5 ${r.withoutLateEvidence.session['any@5']}`,
        ]
      : []),
    '',
    ...renderRunLines({
      search: r.search,
      topK: r.settings.topK,
      concurrency: r.settings.concurrency,
      turns: r.dataset.turns - r.dataset.emptyTurns,
      ingest: r.ingest,
    }),
    `dataset    ${r.dataset.file}: ${n0(r.dataset.questions)} questions (${r.dataset.abstention} abstention, left out), ${n0(r.dataset.sessions)} sessions, ` +
      `${n0(r.dataset.turns)} turns (${r.dataset.emptyTurns} empty, not published); ${r.dataset.withoutTurnEvidence} scored at session level only; ` +
      `${r.dataset.evidenceAfterQuestion} with evidence dated after the question`,
    `asked as   ${r.settings.asOf === 'question' ? 'of each question_date' : 'of now'}`,
    `checks     ${n0(r.checks.messages)}/${n0(r.checks.expectedMessages)} messages, ${r.checks.deadLetters} dead letters`,
    `machine    ${r.machine.cores} × ${r.machine.cpu}, ${r.machine.memoryGiB} GiB, PG ${r.machine.postgres}, pgvector ${r.machine.pgvector}, node ${r.machine.node}`,
  ].join('\n');
}
