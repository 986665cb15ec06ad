#!/usr/bin/env node
/**
 * `npm run bench:soak -- --minutes N`: every service as its own process on a private nats-server
 * and scratch database, driven for N minutes by a steady ingest of turns over NATS, memory
 * searches and context builds at the same time (open loops: a slow answer does not slow the
 * rate). Samples each service's resident memory and the consumers' backlog, times every call, and
 * writes bench-results/soak.json, a chart (bench-results/soak.html: resident memory per service
 * and p95 per window over time) and, as the last stdout line,
 * {"minutes","rssSlopeMBPerHour","p95DriftPct"}. See BENCHMARKS.md, "Soak".
 */
import { resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { Client } from 'pg';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Rpcs, SERVICE_NAMES } from '@engram/contracts';
import { callRpc, readQueueStatus } from '@engram/messaging';
import {
  createMigratedDatabase,
  lastLines,
  startNatsServer,
  waitFor,
  type ServiceProcess,
} from '@engram/testing';
import { DEFAULT_CORPUS, generateTurnCorpus, type CorpusTurn } from './corpus/turn-corpus';
import { SeededRandom } from './corpus/seeded-random';
import { summarizeLatencies } from './measure/latency-stats';
import { scrapeMetricSums } from './measure/prometheus-text';
import { residentMegabytes } from './measure/process-cpu';
import { publishPaced } from './publish/paced-publisher';
import { writeResult } from './report/bench-report';
import { describeMachine } from './report/machine';
import {
  Cleanups,
  decimal,
  dumpServiceOutput,
  integer,
  progressFor,
  runBench,
  startReadyService,
  stopService,
} from './run/lifecycle';
import { renderSoakChart } from './soak/soak-chart';
import {
  defaultWarmupMinutes,
  latencyWindows,
  p95Drift,
  slopeMBPerHour,
  type TimedCall,
} from './soak/soak-figures';
import { runOpenLoop, type OpenLoopRun } from './soak/open-loop';
import {
  renderSoakTable,
  soakChart,
  soakHeadline,
  type CallSeries,
  type ServiceMemory,
  type SoakBenchResult,
  type SoakSample,
} from './soak/soak-report';

const REPO_ROOT = resolve(__dirname, '../../..');
/** Every service; gerty first, since the others' readiness waits for it. */
const SERVICES = ['gerty', ...SERVICE_NAMES.filter((name) => name !== 'gerty')];
const RPC_TIMEOUT_MS = 10_000;
/** Searches and builds ask about turns published at least this long ago, and start this long after the ingest. */
const PROMPT_LAG_MS = 5000;
/** Lines of each service's log kept in the result. */
const SERVICE_LOG_LINES = 200;

interface Flags {
  minutes: number;
  warmupMinutes?: number;
  rate: number;
  searches: number;
  builds: number;
  sampleSeconds: number;
  windowSeconds: number;
  maxInFlight: number;
  drainTimeout: number;
  seed: number;
  logLevel: string;
  out: string;
  chart: string;
}

/** What a published turn lets the bench ask about: three of its user's words, and the user's message. */
interface Prompt {
  readonly tenantId: string;
  readonly agent: string;
  readonly sessionKey: string;
  readonly query: string;
  readonly message: string;
}

const progress = progressFor('bench:soak');
const cleanups = new Cleanups(progress).installSignalHandlers();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function promptsOf(turns: readonly CorpusTurn[]): Prompt[] {
  const decoder = new TextDecoder();
  return turns.map((turn) => {
    const event = JSON.parse(decoder.decode(turn.payload)) as {
      messages: Array<{ role: string; content: string }>;
    };
    const message = event.messages.find((m) => m.role === 'user')?.content ?? '';
    const words = message.split(/\s+/).filter((w) => /^[a-z]{4,}$/i.test(w));
    return {
      tenantId: turn.tenantId,
      agent: turn.agent,
      sessionKey: turn.sessionKey,
      query: words.slice(0, 3).join(' ') || 'plan',
      message: message.slice(0, 500),
    };
  });
}

/** One round of readings: every service's resident memory, retrieval's index, the backlog, the store. */
async function sample(
  tS: number,
  services: readonly ServiceProcess[],
  jsm: JetStreamManager,
  admin: Client,
): Promise<SoakSample> {
  const rssMB: Record<string, number> = {};
  for (const s of services) {
    const mb = residentMegabytes(s.pid);
    if (mb !== null) rssMB[s.name] = Math.round(mb * 10) / 10;
  }
  const retrieval = services.find((s) => s.name === 'retrieval')!;
  const [index, queues, stored] = await Promise.all([
    scrapeMetricSums(retrieval.httpPort, { bytes: { name: 'engram_search_index_bytes' } }).catch(() => ({
      bytes: 0,
    })),
    readQueueStatus(jsm),
    admin.query<{ n: string | null }>(`SELECT sum(message_count) AS n FROM conversations`),
  ]);
  return {
    tS: Math.round(tS * 10) / 10,
    rssMB,
    retrievalIndexMB: Math.round((index.bytes / 1048576) * 10) / 10,
    backlog: queues.queues.reduce((n, q) => n + q.pending + q.inFlight, 0),
    storedMessages: Number(stored.rows[0]?.n ?? 0),
  };
}

function callSeries(
  run: OpenLoopRun,
  perSecond: number,
  originMs: number,
  flags: Flags,
  warmupS: number,
): CallSeries {
  const failed = run.calls.filter((c) => c.error !== undefined);
  const errors: Record<string, number> = {};
  for (const c of failed) errors[c.error!] = (errors[c.error!] ?? 0) + 1;
  const windows = latencyWindows(run.calls, originMs, flags.windowSeconds);
  const afterWarmup = (c: TimedCall) => c.error === undefined && c.startMs >= originMs + warmupS * 1000;
  return {
    perSecond,
    sent: run.calls.length,
    failed: failed.length,
    errors,
    skipped: run.skipped,
    afterWarmup: summarizeLatencies(run.calls.filter(afterWarmup).map((c) => c.latencyMs)),
    windows,
    drift: p95Drift(windows, warmupS, flags.minutes * 60),
  };
}

function serviceMemory(name: string, samples: readonly SoakSample[], warmupS: number): ServiceMemory {
  const readings = samples.flatMap((s) =>
    s.rssMB[name] === undefined ? [] : [{ tS: s.tS, value: s.rssMB[name]! }],
  );
  const slope = slopeMBPerHour(readings, warmupS);
  const lessIndex =
    name === 'retrieval'
      ? slopeMBPerHour(
          samples.flatMap((s) =>
            s.rssMB[name] === undefined ? [] : [{ tS: s.tS, value: s.rssMB[name]! - s.retrievalIndexMB }],
          ),
          warmupS,
        )
      : slope;
  return {
    name,
    firstMB: readings[0]?.value ?? 0,
    lastMB: readings[readings.length - 1]?.value ?? 0,
    maxMB: Math.max(0, ...readings.map((r) => r.value)),
    slopeMBPerHour: slope,
    headlineSlopeMBPerHour: lessIndex,
  };
}

async function main(flags: Flags): Promise<void> {
  const warmupMinutes = flags.warmupMinutes ?? defaultWarmupMinutes(flags.minutes);
  if (warmupMinutes >= flags.minutes)
    throw new Error(`--warmup-minutes (${warmupMinutes}) must be shorter than --minutes (${flags.minutes})`);
  const seconds = flags.minutes * 60;
  const warmupS = warmupMinutes * 60;
  const services: ServiceProcess[] = [];
  try {
    const nats = await startNatsServer();
    cleanups.add(() => nats.stop());
    const db = await createMigratedDatabase('soak');
    cleanups.add(() => db.drop());
    const admin = new Client({ connectionString: db.adminUrl, application_name: 'engram-bench-soak' });
    await admin.connect();
    cleanups.add(() => admin.end());
    const machine = await describeMachine(admin);

    const env = { NATS_URL: nats.url, DATABASE_URL: db.appUrl, LOG_LEVEL: flags.logLevel };
    for (const name of SERVICES) services.push(await startReadyService(cleanups, name, env));
    progress(`${services.map((s) => `${s.name} (pid ${s.pid})`).join(', ')} ready`);
    const nc: NatsConnection = await connect({
      servers: nats.url,
      name: 'engram-bench-soak',
      noAsyncTraces: true,
    });
    cleanups.add(() => nc.close());
    const jsm = await jetstreamManager(nc);

    // More turns than the run can publish (at least two messages a turn); the pacer stops on time.
    const corpus = generateTurnCorpus({
      ...DEFAULT_CORPUS,
      turns: Math.ceil((flags.rate * seconds) / 2) + 100,
      seed: flags.seed,
    });
    const prompts = promptsOf(corpus.turns);
    const messagesPerTurn = corpus.messages / corpus.turns.length;
    const random = new SeededRandom(flags.seed);
    const origin = Date.now();
    /**
     * A turn published PROMPT_LAG_MS ago or earlier, at random (stored by then, its conversation
     * too): what a runtime would search for or build a prompt around.
     */
    const publishedPrompt = () => {
      const published = ((Date.now() - origin - PROMPT_LAG_MS) / 1000) * (flags.rate / messagesPerTurn);
      return prompts[Math.floor(random.next() * Math.max(1, Math.min(prompts.length, published)))]!;
    };

    progress(
      `${flags.minutes} min: ${flags.rate} messages/s, ${flags.searches} searches/s, ${flags.builds} context builds/s; warm-up ${warmupMinutes} min`,
    );
    const samples: SoakSample[] = [];
    let loading = true;
    const sampling = (async () => {
      for (let n = 0; ; n++) {
        const dueMs = n * flags.sampleSeconds * 1000;
        if (dueMs > seconds * 1000) break;
        await sleep(Math.max(0, origin + dueMs - Date.now()));
        const s = await sample((Date.now() - origin) / 1000, services, jsm, admin);
        samples.push(s);
        if (n > 0 && dueMs % 60_000 === 0)
          progress(
            `minute ${dueMs / 60_000}/${flags.minutes}: ${Object.entries(s.rssMB)
              .map(([k, v]) => `${k} ${Math.round(v)}`)
              .join(
                ', ',
              )} MB; index ${s.retrievalIndexMB} MB; backlog ${s.backlog}; ${s.storedMessages} stored`,
          );
        if (!loading) break;
      }
    })();
    const [published, searches, builds] = await Promise.all([
      publishPaced(jetstream(nc), [{ name: 'soak', turns: corpus.turns, seconds }], {
        messagesPerSecond: flags.rate,
        tickMs: 50,
        window: 256,
      }),
      sleep(PROMPT_LAG_MS).then(() =>
        runOpenLoop(flags.searches, seconds - PROMPT_LAG_MS / 1000, flags.maxInFlight, () => {
          const p = publishedPrompt();
          return callRpc(
            nc,
            Rpcs.search,
            { query: p.query, topK: 10 },
            { tenantId: p.tenantId, timeoutMs: RPC_TIMEOUT_MS },
          );
        }),
      ),
      sleep(PROMPT_LAG_MS).then(() =>
        runOpenLoop(flags.builds, seconds - PROMPT_LAG_MS / 1000, flags.maxInFlight, () => {
          const p = publishedPrompt();
          return callRpc(
            nc,
            Rpcs.contextBuild,
            {
              agent: p.agent,
              sessionKey: p.sessionKey,
              currentMessage: p.message,
            },
            { tenantId: p.tenantId, timeoutMs: RPC_TIMEOUT_MS },
          );
        }),
      ),
    ]);
    loading = false;
    await sampling;
    const phase = published.phases[0]!;
    if (phase.ranOut) progress('the corpus ran out before the time was up: the rate fell at the end');

    progress(`load stopped; waiting up to ${flags.drainTimeout} s for the workers to drain`);
    const loadEnded = Date.now();
    let drainedAfterSeconds: number | null = null;
    await waitFor(
      'the workers to drain',
      async () => {
        const queues = await readQueueStatus(jsm);
        const stored = await admin.query<{ n: string | null }>(
          `SELECT sum(message_count) AS n FROM conversations`,
        );
        return (
          queues.queues.every((q) => q.pending + q.inFlight === 0) &&
          Number(stored.rows[0]?.n ?? 0) >= phase.messages
        );
      },
      flags.drainTimeout * 1000,
      1000,
    ).then(
      () => (drainedAfterSeconds = Math.round((Date.now() - loadEnded) / 100) / 10),
      () => progress('the workers did not drain within the wait'),
    );
    const final = await readQueueStatus(jsm);
    const storedAtEnd = await admin.query<{ n: string | null }>(
      `SELECT sum(message_count) AS n FROM conversations`,
    );

    const memory = SERVICES.map((name) => serviceMemory(name, samples, warmupS));
    const search = callSeries(searches, flags.searches, origin, flags, warmupS);
    const contextBuild = callSeries(builds, flags.builds, origin, flags, warmupS);
    const out = resolve(REPO_ROOT, flags.out);
    const chartFile = resolve(REPO_ROOT, flags.chart);
    const result: SoakBenchResult = {
      benchmark: 'soak',
      finishedAt: new Date().toISOString(),
      machine,
      settings: {
        minutes: flags.minutes,
        warmupMinutes,
        messagesPerSecond: flags.rate,
        searchesPerSecond: flags.searches,
        buildsPerSecond: flags.builds,
        sampleSeconds: flags.sampleSeconds,
        windowSeconds: flags.windowSeconds,
        maxInFlight: flags.maxInFlight,
        seed: flags.seed,
        corpus: {
          tenants: DEFAULT_CORPUS.tenants,
          agentsPerTenant: DEFAULT_CORPUS.agentsPerTenant,
          conversations: DEFAULT_CORPUS.conversations,
        },
        logLevel: flags.logLevel,
      },
      ingest: {
        publishedTurns: phase.turns,
        publishedMessages: phase.messages,
        messagesPerSecond: Math.round(phase.messagesPerSecond * 10) / 10,
        storedMessages: Number(storedAtEnd.rows[0]?.n ?? 0),
        drainedAfterSeconds,
        deadLetters: final.deadLetters,
      },
      samples,
      services: memory,
      retrievalIndexSlopeMBPerHour: slopeMBPerHour(
        samples.map((s) => ({ tS: s.tS, value: s.retrievalIndexMB })),
        warmupS,
      ),
      search,
      contextBuild,
      headline: soakHeadline(flags.minutes, memory, [search, contextBuild]),
      chart: flags.chart,
      serviceLogs: Object.fromEntries(
        services.map((s) => [s.name, lastLines(s.output(), SERVICE_LOG_LINES)]),
      ),
    };
    writeResult(out, result);
    writeFileSync(chartFile, renderSoakChart(soakChart(result)));
    if (drainedAfterSeconds === null) dumpServiceOutput(services, 3000);
    for (const service of [...services].reverse()) await stopService(service);
    console.log(renderSoakTable(result));
    console.log(`\nwritten to ${out} and ${chartFile}`);
    console.log(JSON.stringify(result.headline));
  } catch (error) {
    dumpServiceOutput(services);
    throw error;
  } finally {
    await cleanups.run();
  }
}

const program = new Command('bench:soak')
  .description(
    'Every service as a process under steady ingest, searches and context builds for N minutes: resident memory and p95 over time.',
  )
  .option('--minutes <n>', 'how long the load runs', decimal(1), 30)
  .option(
    '--warmup-minutes <n>',
    'left out of the slope and the drift (default: a fifth of the run, 1 to 5 minutes)',
    decimal(0),
  )
  .option('--rate <n>', 'messages/s published (whole turns of about 2.2 messages)', decimal(0.1), 20)
  .option('--searches <n>', 'memory searches/s (open loop)', decimal(0), 4)
  .option('--builds <n>', 'context builds/s (open loop)', decimal(0), 1)
  .option('--sample-seconds <n>', 'seconds between readings of resident memory', integer(1), 10)
  .option('--window-seconds <n>', 'width of a latency window', integer(5), 60)
  .option(
    '--max-in-flight <n>',
    'calls of one kind out at once; more due are skipped and counted',
    integer(1),
    32,
  )
  .option('--drain-timeout <n>', 'seconds to wait for the workers once the load stopped', integer(0), 180)
  .option('--seed <n>', 'corpus and query seed', integer(0), 42)
  .option('--log-level <level>', 'LOG_LEVEL of the services', 'warn')
  .option('--out <file>', 'where the full result is written', 'bench-results/soak.json')
  .option('--chart <file>', 'where the chart is written (self-contained HTML)', 'bench-results/soak.html');

runBench<Flags>(program, main);
