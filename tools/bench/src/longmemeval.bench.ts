#!/usr/bin/env node
/**
 * `npm run bench:longmemeval -- --data <longmemeval_s.json> [--json]`: retrieval on LongMemEval
 * (Wu et al., ICLR 2025) in the field's standard measures, through the real pipeline: a private
 * nats-server, a migrated scratch database, and gerty (built-in model), ingest, embedder and
 * retrieval as their own processes.
 *
 * The file is read from the given path (the product never reads it) and validated. Every
 * question's haystack goes into one tenant, as its own agent (an organisation's agents): every
 * session a conversation, every turn a message with its role and the session's date
 * (longmemeval/turn-events.ts). Each question is then asked with memory_search (query = the
 * question, filters.agent = its haystack, topK 50, default mode and fusion, asOf = its
 * question_date unless `--as-of now`), one at a time by default so the latency is a single
 * client's. Abstention questions are left out.
 *
 * Measures (measure/standard-recall.ts, as LongMemEval's eval code defines them): turn level
 * over the has_answer turns, session level over answer_session_ids with sessions ranked by their
 * best hit; recall_any@k, recall_all@k and NDCG@k, overall and per question type.
 */
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { loadLongMemEval, LongMemEvalFileError } from './longmemeval/longmemeval-file';
import {
  LONGMEMEVAL_REFERENCES,
  LONGMEMEVAL_TARGETS,
  levelMeasures,
  longMemEvalHeadline,
  measuresByType,
  renderLongMemEvalReport,
  targetsMet,
  type LongMemEvalBenchResult,
  type LongMemEvalQuestionDetail,
} from './longmemeval/longmemeval-report';
import { haystackOf } from './longmemeval/turn-events';
import { evidenceRanks } from './locomo/recall';
import { evidenceSharesWords, missesByReach, storedTurns } from './measure/shared-words';
import { TurnIndex } from './measure/turn-index';
import { firstRanks, rankedByBest } from './measure/standard-recall';
import { writeResult } from './report/bench-report';
import { SearchUnavailableError, type Question } from './run/ask-questions';
import { Cleanups, datasetFile, progressFor, runBench } from './run/lifecycle';
import {
  RECALL_TOP_K,
  recallBenchSettings,
  runRecallBench,
  withRecallBenchOptions,
  type RecallBenchFlags,
} from './run/retrieval-stack';

const REPO_ROOT = resolve(__dirname, '../../..');

interface Flags extends RecallBenchFlags {
  data: string;
  asOf: 'question' | 'now';
}

const progress = progressFor('bench:longmemeval');
const cleanups = new Cleanups(progress).installSignalHandlers();

async function main(flags: Flags): Promise<void> {
  const { file, sha256 } = datasetFile(flags.data);
  const dataset = await loadLongMemEval(file);
  const haystacks = dataset.map((q) => haystackOf(q, flags.tenant));
  const turns = haystacks.flatMap((h) => h.turns);
  const sessions = dataset.reduce((n, q) => n + q.sessions.length, 0);
  const allTurns = dataset.reduce((n, q) => n + q.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
  progress(
    `${file}: ${dataset.length} questions, ${sessions} sessions, ${allTurns} turns (${allTurns - turns.length} empty)`,
  );

  await runRecallBench(
    { name: 'longmemeval', flags, turns, cleanups, progress },
    async ({ stack, ingested, ask }) => {
      const { deadLetters, messages: storedMessages, ...ingestFigures } = ingested;
      // Which turn each stored message is, per agent (= question).
      const stored = await storedTurns(stack.admin, flags.tenant);
      const index = new TurnIndex(stored);

      const scored = dataset.flatMap((q, i) =>
        q.abstention ? [] : [{ question: q, haystack: haystacks[i]! }],
      );
      const asked: Question[] = scored.map(({ question }) => ({
        agent: question.id,
        query: question.question,
        ...(flags.asOf === 'question' && { asOf: question.date }),
      }));
      progress(
        `asking ${asked.length} questions (memory_search, topK ${RECALL_TOP_K}, ${flags.concurrency} at once, as of ${flags.asOf === 'question' ? 'each question_date' : 'now'}); ` +
          `${dataset.length - scored.length} abstention questions left out`,
      );
      const { answers, figures } = await ask(asked);

      // Whether full text could reach each question's evidence turns at all.
      const reach = await evidenceSharesWords(
        stack.admin,
        stored,
        scored.map(({ question, haystack }) => ({
          agent: haystack.agent,
          text: question.question,
          evidence: [...haystack.evidenceTurns],
        })),
      );
      const details: LongMemEvalQuestionDetail[] = scored.map(({ question, haystack }, i) => {
        const answer = answers[i]!;
        const turnOf = (id: string) => index.turnOf(id, haystack.agent);
        const sessionsRanked = rankedByBest(answer.hits, (h) =>
          h.kind === 'message' ? haystack.sessionOfTurn.get(turnOf(h.id) ?? '') : null,
        );
        const asOf = flags.asOf === 'question' ? question.date : null;
        return {
          id: question.id,
          type: question.type,
          question: question.question,
          asOf: asOf?.toISOString() ?? null,
          turnRanks: evidenceRanks([...haystack.evidenceTurns], answer.hits, turnOf),
          sessionRanks: firstRanks(sessionsRanked, haystack.evidenceSessions),
          sharesWords: reach[i]!,
          evidenceAfterAsOf: asOf
            ? question.sessions
                .filter((s) => s.date > asOf)
                .reduce((n, s) => n + s.turns.filter((t) => t.hasAnswer).length, 0)
            : 0,
          top: answer.hits
            .slice(0, 10)
            .map((h) => (h.kind === 'message' ? turnOf(h.id) : undefined) ?? `${h.kind}:${h.id}`),
          hits: answer.hits.length,
          degraded: answer.degraded,
        };
      });
      const measures = measuresByType(details);
      const result: LongMemEvalBenchResult = {
        benchmark: 'longmemeval',
        finishedAt: new Date().toISOString(),
        machine: stack.machine,
        dataset: {
          file,
          sha256,
          questions: dataset.length,
          abstention: dataset.length - scored.length,
          sessions,
          turns: allTurns,
          emptyTurns: allTurns - turns.length,
          withoutTurnEvidence: details.filter((d) => d.turnRanks.length === 0).length,
          evidenceAfterQuestion: scored.filter(({ question }) =>
            question.sessions.some((s) => s.date > question.date && s.turns.some((t) => t.hasAnswer)),
          ).length,
        },
        settings: { ...recallBenchSettings(flags), asOf: flags.asOf },
        ingest: ingestFigures,
        search: figures,
        ...measures,
        withoutLateEvidence: details.some((d) => d.evidenceAfterAsOf > 0)
          ? levelMeasures(details.filter((d) => d.evidenceAfterAsOf === 0))
          : null,
        reach: missesByReach(
          details
            .filter((d) => d.turnRanks.length > 0)
            .map((d) => ({ ranks: d.turnRanks, sharesWords: d.sharesWords })),
          10,
        ),
        references: LONGMEMEVAL_REFERENCES,
        targets: { ...LONGMEMEVAL_TARGETS, met: targetsMet(measures.overall, measures.byType) },
        checks: { messages: storedMessages, expectedMessages: turns.length, deadLetters },
        questions: details,
      };
      const out = resolve(REPO_ROOT, flags.out);
      writeResult(out, result);
      console.log(renderLongMemEvalReport(result));
      console.log(`\nwritten to ${out}`);
      if (flags.json) console.log(JSON.stringify(longMemEvalHeadline(measures, figures.latency)));
    },
  );
}

const program = withRecallBenchOptions(
  new Command('bench:longmemeval')
    .description(
      'Retrieval on LongMemEval in standard measures, through the real pipeline (ingest, embedder, gerty, retrieval).',
    )
    .requiredOption('--data <file>', 'the LongMemEval JSON (longmemeval_s.json, or any split in its format)')
    .addOption(
      new Option('--as-of <moment>', 'ask each question as of its question_date, or as of now')
        .choices(['question', 'now'])
        .default('question'),
    ),
  {
    tenant: 'longmemeval',
    concurrency: 1,
    ingestTimeout: 3600,
    headline: '{"questions","turn","session","byType","searchP50Ms","searchP95Ms"}',
    out: 'bench-results/longmemeval.json',
  },
);

runBench(program, main, [LongMemEvalFileError, SearchUnavailableError]);
