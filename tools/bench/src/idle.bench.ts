#!/usr/bin/env node
/**
 * `npm run bench:idle`: every service on a database holding many messages (the bench:search
 * corpus) and nothing arriving; after start-up settles, the CPU each process uses while idle,
 * as % of one core. See BENCHMARKS.md.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { Client } from 'pg';
import { connect } from '@nats-io/transport-node';
import { loadConfig } from '@engram/config';
import { SERVICE_NAMES } from '@engram/contracts';
import { contentTerms, LocalEmbedder } from '@engram/local-model';
import { startNatsServer, type ServiceProcess } from '@engram/testing';
import { CpuAccumulator } from './idle/cpu-accumulator';
import { idleFigures, type DatabaseActivity, type IdleBenchResult } from './idle/idle-report';
import { ServiceProfile } from './profile/service-profile';
import { backendsOf, parentOf, processesMatching, type ProcessGroup } from './measure/process-cpu';
import { writeResult } from './report/bench-report';
import { describeMachine } from './report/machine';
import { Cleanups, integer, progressFor, runBench, startReadyService } from './run/lifecycle';
import { CorpusGenerator } from './search/corpus-generator';
import { ensureCorpusDatabase } from './search/corpus-database';
import { loadCorpus } from './search/corpus-load';
import {
  CORPUS_LEXICON,
  corpusSizeLabel,
  FULL_CORPUS,
  planCorpus,
  type CorpusSpec,
} from './search/corpus-shape';
import { warmIndexes } from './search/measure-search';
import { generateQueries } from './search/query-generator';
import { lexiconOf, ZipfText } from './search/zipf-text';

const REPO_ROOT = resolve(__dirname, '../../..');
/** Gerty first: the others' readiness waits for it. */
const SERVICES = ['gerty', ...SERVICE_NAMES.filter((name) => name !== 'gerty')];
const SAMPLE_MS = 1000;

interface Flags {
  messages: number;
  seconds: number;
  settle: number;
  warmIndexes: boolean;
  cpuProf?: string;
  fresh: boolean;
  logLevel: string;
  json: boolean;
  out: string;
}

const progress = progressFor('bench:idle');
const cleanups = new Cleanups(progress).installSignalHandlers();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** This database's counters (pg_stat_database): what the idle stack asked of Postgres. */
async function databaseActivity(admin: Client, database: string): Promise<DatabaseActivity> {
  const { rows } = await admin.query<Record<keyof DatabaseActivity, string>>(
    `SELECT xact_commit + xact_rollback AS transactions, tup_returned AS "rowsScanned", tup_fetched AS "rowsFetched",
            blks_hit + blks_read AS blocks, sessions
       FROM pg_stat_database WHERE datname = $1`,
    [database],
  );
  const row = rows[0]!;
  return {
    transactions: Number(row.transactions),
    rowsScanned: Number(row.rowsScanned),
    rowsFetched: Number(row.rowsFetched),
    blocks: Number(row.blocks),
    sessions: Number(row.sessions),
  };
}

async function main(flags: Flags): Promise<void> {
  const admin = new Client({
    connectionString: loadConfig(['ENGRAM_PG_ADMIN_URL']).ENGRAM_PG_ADMIN_URL,
    application_name: 'engram-bench-idle',
  });
  await admin.connect();
  cleanups.add(() => admin.end());
  const machine = await describeMachine(admin);

  const spec: CorpusSpec = { ...FULL_CORPUS, messages: flags.messages };
  const label = corpusSizeLabel(spec.messages);
  const tenants = planCorpus(spec);
  const embedder = LocalEmbedder.load();
  const text = new ZipfText(lexiconOf(embedder, CORPUS_LEXICON.words), CORPUS_LEXICON.zipfExponent);
  // A database of its own (idle_…), so that bench:search's cached corpora are never dropped by this one.
  const db = await ensureCorpusDatabase(`idle_${label}`, spec, {
    fresh: flags.fresh,
    progress: (t) => progress(`${label}: ${t}`),
    load: (target) =>
      loadCorpus(target.adminUrl, tenants, new CorpusGenerator(text), embedder, (t) =>
        progress(`${label}: ${t}`),
      ),
  });
  progress(`${label}: ${JSON.stringify(db.marker.load.rows)} in ${db.name}`);

  const nats = await startNatsServer();
  cleanups.add(() => nats.stop());
  const env = { NATS_URL: nats.url, DATABASE_URL: db.appUrl, LOG_LEVEL: flags.logLevel };
  const services: ServiceProcess[] = [];
  const profiler = flags.cpuProf ? new ServiceProfile(`idle-${flags.cpuProf}`) : undefined;
  const startedAt = performance.now();
  for (const name of SERVICES)
    services.push(
      await startReadyService(
        cleanups,
        name,
        { ...env, ...(name === flags.cpuProf && profiler?.env) },
        120_000,
      ),
    );
  const profiled = services.find((s) => s.name === flags.cpuProf);
  if (flags.cpuProf && !profiled) throw new Error(`--cpu-prof names no service: ${flags.cpuProf}`);
  progress(`${services.map((s) => `${s.name} (pid ${s.pid})`).join(', ')} ready`);

  if (flags.warmIndexes) {
    // Searches load tenants' indexes, as a running deployment has them: the reconciler then has work.
    const nc = await connect({ servers: nats.url, name: 'engram-bench-idle', noAsyncTraces: true });
    try {
      const [probe] = generateQueries(
        1,
        {
          word: (random) => text.word(random),
          isContentWord: (word) => word.length >= 3 && contentTerms(word).length > 0,
          tenants,
          period: { fromMs: spec.fromMs, toMs: spec.toMs },
        },
        42,
      );
      const warmed = await warmIndexes(
        nc,
        tenants.map((t) => ({ tenantId: t.id, messages: t.messages })),
        probe!,
      );
      progress(
        `indexes of ${warmed.all.tenants + 1} tenants loaded in ${warmed.all.ms + warmed.oneTenant.ms} ms`,
      );
    } finally {
      await nc.close();
    }
  }

  const settleMs = flags.settle * 1000 - (performance.now() - startedAt);
  progress(`settling ${Math.max(0, Math.round(settleMs / 1000))} s more, then ${flags.seconds} s idle`);
  await sleep(Math.max(0, settleMs));

  const probe = new Client({ connectionString: db.appUrl });
  await probe.connect();
  const postmaster = parentOf(
    (await probe.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid,
  );
  await probe.end();
  if (!postmaster) throw new Error('the Postgres postmaster was not found');
  const groups: ProcessGroup[] = [
    ...services.map((s) => ({ name: s.name, pids: () => [s.pid] })),
    // Only this database's backends: the machine's Postgres also serves other work.
    { name: 'postgres', pids: () => backendsOf(postmaster, db.name) },
    { name: 'nats', pids: () => processesMatching(['nats-server', String(nats.port)]) },
  ];
  const cpu = new CpuAccumulator(groups);
  const loadAverageAtWindow = loadavg()[0]!;
  const before = await databaseActivity(admin, db.name);
  cpu.start();
  if (profiled) profiler!.begin(profiled);
  const began = performance.now();
  while (performance.now() - began < flags.seconds * 1000) {
    await sleep(SAMPLE_MS);
    cpu.sample();
  }
  const windowSeconds = (performance.now() - began) / 1000;
  const after = await databaseActivity(admin, db.name);
  const totals = cpu.totals();
  const profile = profiled ? await profiler!.end(profiled) : undefined;
  const figures = idleFigures(totals, windowSeconds, before, after);

  const result: IdleBenchResult = {
    benchmark: 'idle',
    finishedAt: new Date().toISOString(),
    machine: { ...machine, loadAverageAtWindow },
    corpus: {
      database: db.name,
      reused: db.reused,
      spec,
      tenants: tenants.length,
      rows: db.marker.load.rows,
    },
    settings: {
      seconds: flags.seconds,
      settleSeconds: flags.settle,
      warmIndexes: flags.warmIndexes,
      logLevel: flags.logLevel,
      services: SERVICES,
    },
    ...(profile && { profile: { service: flags.cpuProf, ...profile } }),
    ...figures,
  };
  const out = resolve(REPO_ROOT, flags.out);
  writeResult(out, result);
  for (const [name, pct] of Object.entries(figures.cpuPctOfCore))
    console.log(`${name.padEnd(16)} ${pct.toFixed(2).padStart(6)} % of a core`);
  console.log(
    `${'total'.padEnd(16)} ${figures.idleCpuPct.toFixed(2).padStart(6)} % of a core (machine, everything: ${figures.machineCpuPct.toFixed(0)} %)`,
  );
  console.log(`Postgres: ${JSON.stringify(figures.database)} in ${windowSeconds.toFixed(0)} s`);
  console.log(`\nwritten to ${out}`);
  if (flags.json)
    console.log(
      JSON.stringify({ messages: spec.messages, seconds: flags.seconds, idleCpuPct: figures.idleCpuPct }),
    );
}

const program = new Command('bench:idle')
  .description('CPU of the whole stack, idle, on a database holding many messages.')
  .option('--messages <n>', 'messages in the corpus (the bench:search corpus)', integer(1000), 100_000)
  .option('--seconds <n>', 'the measured idle window', integer(10), 120)
  .option('--settle <n>', 'seconds from the start of the services to the window', integer(0), 150)
  .option('--no-warm-indexes', "leave retrieval's indexes unloaded (no search before the window)")
  .option(
    '--cpu-prof <service>',
    "sample one service's CPU during the window (V8 profiler); its summary goes into the result",
  )
  .option('--fresh', 'generate and load the corpus again even if a cached database exists', false)
  .option('--log-level <level>', 'LOG_LEVEL of the services', 'info')
  .option('--json', 'print {"messages","seconds","idleCpuPct"} as the last line of stdout', false)
  .option(
    '--out <file>',
    'where to write the full result (relative to the repository)',
    'bench-results/idle.json',
  );

runBench<Flags>(program, (flags) => main(flags).finally(() => cleanups.run()));
