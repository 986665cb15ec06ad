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
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { isValidToken } from '@engram/contracts';
import { loadLongMemEval, LongMemEvalFileError } from './longmemeval/longmemeval-file';
import {
  LONGMEMEVAL_REFERENCES,
  LONGMEMEVAL_TARGETS,
  longMemEvalHeadline,
  measuresByType,
  renderLongMemEvalReport,
  targetsMet,
  type LongMemEvalBenchResult,
  type LongMemEvalQuestionDetail,
} from './longmemeval/longmemeval-report';
import { haystackOf } from './longmemeval/turn-events';
import { evidenceRanks } from './locomo/recall';
import { firstRanks, rankedByBest } from './measure/standard-recall';
import { ServiceProfile } from './profile/service-profile';
import { writeResult } from './report/bench-report';
import { askEveryQuestion, SearchUnavailableError, type Question } from './run/ask-questions';
import { Cleanups, dumpServiceOutput, integer, progressFor, runBench } from './run/lifecycle';
import {
  ingestTurns,
  RETRIEVAL_SERVICES,
  startRetrievalStack,
  type RetrievalStack,
} from './run/retrieval-stack';

const REPO_ROOT = resolve(__dirname, '../../..');
const TOP_K = 50;

interface Flags {
  data: string;
  json: boolean;
  out: string;
  tenant: string;
  asOf: 'question' | 'now';
  concurrency: number;
  window: number;
  ingestTimeout: number;
  searchTimeoutMs: number;
  logLevel: string;
  keepDatabase: boolean;
  cpuProf: boolean;
}

const progress = progressFor('bench:longmemeval');
const cleanups = new Cleanups(progress).installSignalHandlers();

async function main(flags: Flags): Promise<void> {
  // npm runs scripts from the repository's root; a relative --data is meant from where npm was called.
  const file = resolve(process.env['INIT_CWD'] ?? process.cwd(), flags.data);
  const dataset = await loadLongMemEval(file);
  const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
  const haystacks = dataset.map((q) => haystackOf(q, flags.tenant));
  const turns = haystacks.flatMap((h) => h.turns);
  const sessions = dataset.reduce((n, q) => n + q.sessions.length, 0);
  const allTurns = dataset.reduce((n, q) => n + q.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
  progress(
    `${file}: ${dataset.length} questions, ${sessions} sessions, ${allTurns} turns (${allTurns - turns.length} empty)`,
  );

  let stack: RetrievalStack | undefined;
  try {
    const profiler = flags.cpuProf ? new ServiceProfile('retrieval-longmemeval') : undefined;
    stack = await startRetrievalStack(cleanups, progress, {
      name: 'longmemeval',
      logLevel: flags.logLevel,
      keepDatabase: flags.keepDatabase,
      ...(profiler && { retrievalEnv: profiler.env }),
    });
    const ingested = await ingestTurns(stack, turns, {
      tenantId: flags.tenant,
      window: flags.window,
      timeoutSeconds: flags.ingestTimeout,
      progress,
    });
    const { deadLetters, messages: storedMessages, ...ingestFigures } = ingested;

    // Which turn each stored message is, per agent (= question).
    const stored = await stack.admin.query<{ id: string; agent: string; turn_id: string }>(
      `SELECT id::text AS id, agent, turn_id FROM messages WHERE tenant_id = $1`,
      [flags.tenant],
    );
    const turnOfMessage = new Map(stored.rows.map((r) => [r.id, { agent: r.agent, turn: r.turn_id }]));

    const scored = dataset.flatMap((q, i) =>
      q.abstention ? [] : [{ question: q, haystack: haystacks[i]! }],
    );
    const asked: Question[] = scored.map(({ question }) => ({
      agent: question.id,
      query: question.question,
      ...(flags.asOf === 'question' && { asOf: question.date }),
    }));
    progress(
      `asking ${asked.length} questions (memory_search, topK ${TOP_K}, ${flags.concurrency} at once, as of ${flags.asOf === 'question' ? 'each question_date' : 'now'}); ` +
        `${dataset.length - scored.length} abstention questions left out`,
    );
    const { answers, figures } = await askEveryQuestion(stack.nc, asked, {
      tenantId: flags.tenant,
      topK: TOP_K,
      concurrency: flags.concurrency,
      timeoutMs: flags.searchTimeoutMs,
      progress,
      retrieval: stack.retrieval,
      ...(profiler && { profiler }),
    });

    const details: LongMemEvalQuestionDetail[] = scored.map(({ question, haystack }, i) => {
      const answer = answers[i]!;
      const turnOf = (id: string) => {
        const hit = turnOfMessage.get(id);
        return hit && hit.agent === haystack.agent ? hit.turn : undefined;
      };
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
        evidenceAfterAsOf: asOf
          ? question.sessions.filter((s) => s.date > asOf && s.turns.some((t) => t.hasAnswer)).length
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
      settings: {
        tenant: flags.tenant,
        topK: TOP_K,
        concurrency: flags.concurrency,
        services: [...RETRIEVAL_SERVICES],
        publishWindow: flags.window,
        asOf: flags.asOf,
      },
      ingest: ingestFigures,
      search: figures,
      ...measures,
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
  } catch (error) {
    // No handler at all needs no logs; a handler that failed is explained by retrieval's.
    if (!(error instanceof SearchUnavailableError)) dumpServiceOutput(stack?.services ?? []);
    else if (error.code !== 'UNAVAILABLE' && stack) dumpServiceOutput([stack.retrieval], 4000);
    throw error;
  } finally {
    await cleanups.run();
  }
}

function tenantId(value: string): string {
  if (!isValidToken(value)) throw new InvalidArgumentError('letters, digits, "_" and "-" only (at most 64)');
  return value;
}

const program = new Command('bench:longmemeval')
  .description(
    'Retrieval on LongMemEval in standard measures, through the real pipeline (ingest, embedder, gerty, retrieval).',
  )
  .requiredOption('--data <file>', 'the LongMemEval JSON (longmemeval_s.json, or any split in its format)')
  .option('--tenant <id>', 'the scratch tenant every haystack is ingested into', tenantId, 'longmemeval')
  .addOption(
    new Option('--as-of <moment>', 'ask each question as of its question_date, or as of now')
      .choices(['question', 'now'])
      .default('question'),
  )
  .option('--concurrency <n>', 'memory_search requests at once', integer(1), 1)
  .option('--window <n>', 'publishes awaiting their JetStream ack at once', integer(1), 256)
  .option(
    '--ingest-timeout <s>',
    'seconds to wait for every message and its vector (it also stops after 60 s without progress)',
    integer(1),
    3600,
  )
  .option('--search-timeout-ms <ms>', 'how long one memory_search may take', integer(1), 30_000)
  .option('--log-level <level>', 'LOG_LEVEL of the services', 'info')
  .option(
    '--keep-database',
    'keep the scratch database afterwards, to look into what was ranked and why',
    false,
  )
  .option(
    '--cpu-prof',
    "sample retrieval's CPU while the questions are asked (V8 profiler); its summary goes into the result (search.retrievalProfile)",
    false,
  )
  .option(
    '--json',
    'print {"questions","turn","session","byType","searchP50Ms","searchP95Ms"} as the last line of stdout',
    false,
  )
  .option(
    '--out <file>',
    'where to write the full result (relative to the repository)',
    'bench-results/longmemeval.json',
  );

runBench(program, main, [LongMemEvalFileError, SearchUnavailableError]);
