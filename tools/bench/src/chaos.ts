#!/usr/bin/env node
/**
 * `npm run test:chaos [-- --seconds 180 --rate 1000]`: the whole stack (every worker as its own
 * process, a private nats-server, a private Postgres) under sustained ingest, memory search and
 * context builds while each worker is SIGKILLed twice and restarted, nats-server and Postgres are
 * restarted, and Gerty is stalled for 30 s. Then the pipeline catches up and the run checks that
 * every published message is stored exactly once and every derived artefact is consistent.
 * The full report goes to bench-results/chaos.json; the last stdout line is
 * {"published","stored","lost","duplicated","deadLetters","problems"} (problems: how many were
 * printed). Exit 1 when anything was lost or duplicated or any problem was printed.
 */
import { resolve } from 'node:path';
import { Command } from 'commander';
import { failuresByFault, runChaos } from '@engram/testing';
import { writeResult } from './report/bench-report';
import { integer, progressFor, runBench } from './run/lifecycle';

const REPO_ROOT = resolve(__dirname, '../../..');

/** The run finished and found something lost, duplicated or inconsistent (exit 1 after the JSON line). */
class ChaosFailed extends Error {}

interface Flags {
  readonly seconds: number;
  readonly rate: number;
  readonly kills: number;
  readonly stallSeconds: number;
  readonly searchers: number;
  readonly settleSeconds: number;
  readonly out: string;
  readonly logs?: string;
}

async function main(flags: Flags): Promise<void> {
  const progress = progressFor('test:chaos');
  const report = await runChaos({
    loadSeconds: flags.seconds,
    messagesPerSecond: flags.rate,
    killsPerWorker: flags.kills,
    gertyStallMs: flags.stallSeconds * 1000,
    searchers: flags.searchers,
    settleTimeoutMs: flags.settleSeconds * 1000,
    progress,
    ...(flags.logs && { logDir: resolve(flags.logs) }),
  });
  writeResult(resolve(REPO_ROOT, flags.out), {
    ranAt: new Date().toISOString(),
    parameters: flags,
    ...report,
  });
  progress(
    `caught up after the load, by consumer: ${Object.entries(report.caughtUpByConsumer)
      .map(([name, s]) => `${name} ${s === null ? 'never' : `${s} s`}`)
      .join(', ')}`,
  );
  progress(
    `failed calls by fault: ${
      Object.entries(failuresByFault(report.failedCalls))
        .map(([fault, n]) => `${fault}: ${n}`)
        .join('; ') || 'none'
    }`,
  );
  for (const problem of report.problems) progress(`PROBLEM ${problem}`);
  progress(
    `${report.faults.length} faults; searches ${report.searches.answered} answered, ${report.searches.failed} failed; ` +
      `context builds ${report.contextBuilds.answered} answered, ${report.contextBuilds.failed} failed; ` +
      `${report.scenesAdded} scenes added; caught up ${report.catchUpSeconds} s after the load; written to ${flags.out}`,
  );
  const { published, stored, lost, duplicated, deadLetters } = report;
  console.log(
    JSON.stringify({ published, stored, lost, duplicated, deadLetters, problems: report.problems.length }),
  );
  if (lost > 0 || duplicated > 0 || report.problems.length > 0)
    throw new ChaosFailed(`${lost} lost, ${duplicated} duplicated, ${report.problems.length} problem(s)`);
}

runBench<Flags>(
  new Command('test:chaos')
    .description(
      'Every worker SIGKILLed, NATS and Postgres restarted, Gerty stalled, under load: nothing lost.',
    )
    .option('--seconds <n>', 'how long the load and the faults run', integer(10), 180)
    .option('--rate <n>', 'messages published per second', integer(1), 1000)
    .option('--kills <n>', 'SIGKILLs of each worker', integer(0), 2)
    .option('--stall-seconds <n>', 'how long Gerty is stopped', integer(0), 30)
    .option('--searchers <n>', 'concurrent search and context-build callers', integer(0), 4)
    .option('--settle-seconds <n>', 'how long the pipeline may take to catch up', integer(10), 600)
    .option('--out <file>', 'where the full report is written', 'bench-results/chaos.json')
    .option('--logs <dir>', 'keep every worker process’s output there (<worker>-<replica>.log)'),
  main,
  [ChaosFailed],
);
