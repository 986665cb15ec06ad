#!/usr/bin/env node
/**
 * `npm run bench:ingest`: sustained ingest rate, publish to durable, against the
 * same rows loaded with COPY as the ceiling. See BENCHMARKS.md.
 */
import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { Client } from 'pg';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { Consumers, Streams } from '@engram/contracts';
import {
  createMigratedDatabase,
  startNatsServer,
  startService,
  waitFor,
  type NatsServerHandle,
  type ServiceProcess,
} from '@engram/testing';
import { CONTENT_DISTRIBUTIONS, type ContentDistribution } from './corpus/content-lengths';
import {
  DEFAULT_CORPUS,
  generateTurnCorpus,
  type CorpusOptions,
  type TurnCorpus,
} from './corpus/turn-corpus';
import { measureCopyCeiling } from './copy/copy-ceiling';
import { normalizeCorpus } from './copy/message-rows';
import { steadyRate, waitForDurableRows } from './measure/durable-rows';
import {
  backendsOf,
  cpuBetween,
  parentOf,
  postgresAuxiliaries,
  processesMatching,
  snapshotCpu,
  type ProcessGroup,
} from './measure/process-cpu';
import { scrapeConsumerMetrics } from './measure/service-metrics';
import { WaitEventSampler } from './measure/wait-event-sampler';
import { ServiceProfile } from './profile/service-profile';
import { headline, renderTable, TARGETS, writeResult, type IngestBenchResult } from './report/bench-report';
import { describeMachine } from './report/machine';
import { publishTurns } from './publish/turn-publisher';
import { Cleanups, integer, progressFor, runBench, stopService } from './run/lifecycle';

const REPO_ROOT = resolve(__dirname, '../../..');

interface Flags {
  turns: number;
  tenants: number;
  agents: number;
  conversations: number;
  seed: number;
  content: ContentDistribution;
  warmup: number;
  window: number;
  batchSize?: number;
  concurrency?: number;
  lingerMs?: number;
  poolSize?: number;
  logLevel: string;
  cpuProf: boolean;
  json: boolean;
  out?: string;
}

const progress = progressFor('bench:ingest');

/** Stops what the run started (service, nats-server) and drops its databases, newest first; also on Ctrl-C. */
const cleanups = new Cleanups(progress).installSignalHandlers();
const cleanUp = () => cleanups.run();

async function main(flags: Flags): Promise<void> {
  const corpusOptions: CorpusOptions = {
    ...DEFAULT_CORPUS,
    turns: flags.turns,
    tenants: flags.tenants,
    agentsPerTenant: flags.agents,
    conversations: flags.conversations,
    seed: flags.seed,
    content: flags.content,
  };
  const corpus = generateTurnCorpus(corpusOptions);
  const warmup = generateTurnCorpus({
    ...corpusOptions,
    turns: flags.warmup,
    seed: flags.seed + 1,
    conversations: 4,
    tenantNames: ['warmup'],
  });
  const normalized = normalizeCorpus(corpus.turns);
  progress(
    `corpus: ${corpus.turns.length} turns, ${corpus.messages} messages (+ ${warmup.turns.length} warm-up turns)`,
  );

  let nats: NatsServerHandle | undefined;
  let service: ServiceProcess | undefined;
  let nc: NatsConnection | undefined;
  try {
    nats = await startNatsServer();
    cleanups.add(() => nats!.stop());
    const ingestDb = await createMigratedDatabase('ingest');
    cleanups.add(() => ingestDb.drop());
    const copyDb = await createMigratedDatabase('copy');
    cleanups.add(() => copyDb.drop());
    progress(`nats-server ${nats.url}; databases ${ingestDb.name} (ingest), ${copyDb.name} (COPY)`);

    const admin = new Client({ connectionString: ingestDb.adminUrl, application_name: 'engram-bench-poll' });
    await admin.connect();
    cleanups.add(() => admin.end());
    const machine = await describeMachine(admin);
    const sampler = new Client({
      connectionString: ingestDb.adminUrl,
      application_name: 'engram-bench-activity',
    });
    await sampler.connect();
    cleanups.add(() => sampler.end());

    const profiler = flags.cpuProf ? new ServiceProfile('ingest') : undefined;
    const env: Record<string, string> = {
      NATS_URL: nats.url,
      DATABASE_URL: ingestDb.appUrl,
      LOG_LEVEL: flags.logLevel,
    };
    if (flags.batchSize !== undefined) env['CONSUMER_BATCH_SIZE'] = String(flags.batchSize);
    if (flags.concurrency !== undefined) env['CONSUMER_CONCURRENCY'] = String(flags.concurrency);
    if (flags.lingerMs !== undefined) env['CONSUMER_LINGER_MS'] = String(flags.lingerMs);
    if (flags.poolSize !== undefined) env['DATABASE_POOL_SIZE'] = String(flags.poolSize);
    if (profiler) Object.assign(env, profiler.env);
    service = await startService('ingest', env);
    const ingest = service;
    cleanups.add(() => stopService(ingest));
    await service.waitUntilReady();
    await waitFor(
      'the ingest-turns consumer',
      async () =>
        ingest.output().includes(`consuming ${Streams.turns.name}/${Consumers.ingestTurns.durable}`),
      30_000,
    );
    const consuming = /batches of (\d+), concurrency (\d+)/.exec(service.output());
    progress(`ingest running (pid ${service.pid}, ${consuming?.[0] ?? 'defaults'})`);

    nc = await connect({ servers: nats.url, name: 'engram-bench' });
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);

    // Warm-up (another tenant): JIT, connection pool, first pages. Not measured.
    const warmupRows = warmup.messages;
    await publishTurns(js, warmup.turns, flags.window);
    await waitForDurableRows(admin, warmupRows, performance.now(), {
      sparseMs: 100,
      denseMs: 50,
      nearlyDone: async () => false,
      stallMs: 60_000,
    });
    await waitForAcked(jsm);
    await admin.query('CHECKPOINT');
    progress(`warm-up done (${warmupRows} rows); publishing ${corpus.turns.length} turns`);

    // The measurement: first publish → every message row committed.
    const backendPid = Number(
      (await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid,
    );
    const postmaster = parentOf(backendPid) ?? backendPid;
    const natsPort = String(nats.port);
    const groups: ProcessGroup[] = [
      { name: 'ingest', pids: () => [ingest.pid] },
      // The backends of this run's database (other databases' are "other"), apart from the
      // auxiliary processes, which also write and flush for everyone else on the server.
      { name: 'postgres', pids: () => backendsOf(postmaster, ingestDb.name) },
      { name: 'postgres-shared', pids: () => postgresAuxiliaries(postmaster) },
      { name: 'nats', pids: () => processesMatching(['nats-server', natsPort]) },
      { name: 'bench', pids: () => [process.pid] },
    ];
    profiler?.begin(service);
    const activity = new WaitEventSampler(sampler, ingestDb.name);
    activity.start();
    const cpuBefore = snapshotCpu(groups);
    const startedAt = performance.now();
    const expected = warmupRows + corpus.messages;
    let publishing = true;
    const [published, durable] = await Promise.all([
      publishTurns(js, corpus.turns, flags.window, startedAt).finally(() => (publishing = false)),
      waitForDurableRows(admin, expected, startedAt, {
        sparseMs: 500,
        denseMs: 20,
        // Count densely once at most ~2 batches of turns are left unacknowledged (asked of NATS, not Postgres).
        nearlyDone: async () => !publishing && (await unacknowledgedTurns(jsm)) <= 512,
        stallMs: 60_000,
      }),
    ]);
    const cpuAfter = snapshotCpu(groups);
    const postgresActivity = await activity.stop();
    const ackedAt = await waitForAcked(jsm);
    const seconds = (durable.reachedAt - startedAt) / 1000;
    const cpuSeconds = cpuBetween(cpuBefore, cpuAfter);
    progress(`durable after ${seconds.toFixed(2)} s (${Math.round(corpus.messages / seconds)} messages/s)`);

    const metrics = await scrapeConsumerMetrics(service.httpPort, Consumers.ingestTurns.durable);
    const countersOff = async () =>
      Number(
        (
          await admin.query<{ n: string }>(
            `SELECT count(*) AS n FROM conversations c
              WHERE c.message_count <> (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id)`,
          )
        ).rows[0]!.n,
      );
    const factCount = async () =>
      Number((await admin.query<{ n: string }>('SELECT count(*) AS n FROM facts')).rows[0]!.n);
    const factsBefore = await factCount();
    const storedBefore = await storedEvents(jsm);

    // Redelivery (untimed): the same turns again under new Nats-Msg-Ids, so that JetStream
    // stores them and ingest sees them a second time, must add nothing.
    const again = corpus.turns
      .slice(0, Math.min(2000, corpus.turns.length))
      .map((t) => ({ ...t, msgId: `${t.msgId}:again` }));
    await publishTurns(js, again, flags.window);
    await waitForAcked(jsm);
    const rowsAfterRedelivery = Number(
      (await admin.query<{ n: string }>('SELECT count(*) AS n FROM messages')).rows[0]!.n,
    );

    const checks = {
      messageRows: durable.rows - warmupRows,
      expectedRows: corpus.messages,
      conversations: Number(
        (
          await admin.query<{ n: string }>(
            `SELECT count(*) AS n FROM conversations WHERE tenant_id <> 'warmup'`,
          )
        ).rows[0]!.n,
      ),
      deadLetters: (await jsm.streams.info(Streams.deadLetters.name)).state.messages,
      storedEvents: storedBefore - warmup.turns.length,
      facts: factsBefore,
      conversationsWithWrongCounters: await countersOff(),
      redeliveredTurns: again.length,
      redeliveryAddedRows: rowsAfterRedelivery - durable.rows,
      redeliveryAddedFacts: (await factCount()) - factsBefore,
      redeliveryAddedStoredEvents: (await storedEvents(jsm)) - storedBefore,
      duplicatePublishes: published.duplicates,
    };
    const profile = profiler ? await profiler.end(service) : undefined;
    await stopService(service);

    // The NATS ceiling: the same turns into a stream nobody consumes, with nothing else running.
    progress('publish only (NATS ceiling)');
    const publishOnly = await measurePublishOnly(jsm, corpus, flags.window, nc);

    // The Postgres ceiling: the same rows with COPY into a fresh database.
    progress('COPY ceiling');
    const copy = await measureCopyCeiling(copyDb.adminUrl, normalized);

    const messagesPerSecond = corpus.messages / seconds;
    const ratio = messagesPerSecond / copy.rowsPerSecond;
    const wall = seconds;
    const result: IngestBenchResult = {
      benchmark: 'ingest',
      finishedAt: new Date().toISOString(),
      machine,
      corpus: {
        seed: flags.seed,
        content: flags.content,
        turns: corpus.turns.length,
        messages: corpus.messages,
        tenants: corpusOptions.tenants,
        agentsPerTenant: corpusOptions.agentsPerTenant,
        conversations: new Set(corpus.turns.map((t) => `${t.tenantId}/${t.agent}/${t.sessionKey}`)).size,
        toolTurns: corpus.toolTurns,
        taggedTurns: corpus.taggedTurns,
        meanTurnBytes: Math.round(corpus.payloadBytes / corpus.turns.length),
        meanContentChars: Math.round(corpus.contentChars / corpus.messages),
        warmupTurns: warmup.turns.length,
      },
      settings: {
        publishWindow: flags.window,
        batchSize: consuming?.[1] ?? 'service default',
        concurrency: consuming?.[2] ?? 'service default',
        lingerMs: `${flags.lingerMs ?? process.env['CONSUMER_LINGER_MS'] ?? 'default'} ms`.replace(
          'default ms',
          'service default',
        ),
        poolSize: String(flags.poolSize ?? process.env['DATABASE_POOL_SIZE'] ?? 'service default'),
        logLevel: flags.logLevel,
      },
      ingest: {
        seconds,
        messagesPerSecond,
        megabytesPerSecond: copy.bytes / 1e6 / seconds,
        turnsPerSecond: corpus.turns.length / seconds,
        steadyMessagesPerSecond: steadyRate(durable.samples, warmupRows, corpus.messages),
        publishSeconds: (published.finishedAt - startedAt) / 1000,
        ackedSeconds: (ackedAt - startedAt) / 1000,
        batches: metrics.batches,
        meanBatchTurns: metrics.batches ? (metrics.outcomes['ack'] ?? 0) / metrics.batches : 0,
        meanBatchMs: metrics.batches ? (metrics.handlerSeconds / metrics.batches) * 1000 : 0,
        cpuSeconds,
        coresBusy:
          Object.entries(cpuSeconds).reduce((sum, [k, v]) => (k === 'other' ? sum : sum + v), 0) / wall,
        postgresActivity,
        probeSeconds: durable.probeSeconds,
      },
      publishOnly,
      copy: {
        rows: copy.rows,
        seconds: copy.seconds,
        rowsPerSecond: copy.rowsPerSecond,
        megabytes: copy.bytes / 1e6,
        megabytesPerSecond: copy.bytes / 1e6 / copy.seconds,
        cpuSeconds: copy.cpuSeconds,
      },
      ratio,
      targets: { ...TARGETS, met: messagesPerSecond >= TARGETS.messagesPerSecond && ratio >= TARGETS.ratio },
      checks,
      ...(profile && { profile }),
    };
    if (
      checks.messageRows !== checks.expectedRows ||
      checks.deadLetters !== 0 ||
      checks.storedEvents !== corpus.turns.length ||
      checks.conversationsWithWrongCounters !== 0 ||
      checks.redeliveryAddedRows !== 0 ||
      checks.redeliveryAddedFacts !== 0 ||
      checks.redeliveryAddedStoredEvents !== 0
    ) {
      throw new Error(`ingest did not store the corpus exactly: ${JSON.stringify(checks)}`);
    }
    const out = resolve(
      REPO_ROOT,
      flags.out ??
        (flags.content === 'short'
          ? 'bench-results/ingest.json'
          : `bench-results/ingest-${flags.content}.json`),
    );
    writeResult(out, result);
    console.log(renderTable(result));
    console.log(`\nwritten to ${out}`);
    if (flags.json) console.log(JSON.stringify(headline(result)));
  } catch (error) {
    if (service)
      process.stderr.write(`--- ingest output (last 3000 chars) ---\n${service.output().slice(-3000)}\n`);
    throw error;
  } finally {
    await nc?.close().catch(() => undefined);
    await cleanUp();
  }
}

/** Turns in the stream that the ingest consumer has not acknowledged yet. */
async function unacknowledgedTurns(jsm: JetStreamManager): Promise<number> {
  const info = await jsm.consumers.info(Streams.turns.name, Consumers.ingestTurns.durable);
  return info.num_pending + info.num_ack_pending;
}

/** Resolves (performance.now()) once the consumer has no pending and no unacknowledged turns. */
async function waitForAcked(jsm: JetStreamManager): Promise<number> {
  let at = 0;
  await waitFor(
    'every turn acknowledged',
    async () => {
      const info = await jsm.consumers.info(Streams.turns.name, Consumers.ingestTurns.durable);
      at = performance.now();
      return info.num_pending === 0 && info.num_ack_pending === 0;
    },
    120_000,
    20,
  );
  return at;
}

/** mem.message.stored events in MEMORY_EVENTS: one per stored turn. */
async function storedEvents(jsm: JetStreamManager): Promise<number> {
  const info = await jsm.streams.info(Streams.events.name, { subjects_filter: 'mem.message.stored.>' });
  return Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
}

async function measurePublishOnly(
  jsm: JetStreamManager,
  corpus: TurnCorpus,
  window: number,
  nc: NatsConnection,
) {
  const name = 'BENCH_PUBLISH_ONLY';
  await jsm.streams.add({
    name,
    subjects: ['bench.publish.>'],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    duplicate_window: 2 * 60 * 1_000_000_000,
  });
  try {
    const turns = corpus.turns.map((t) => ({ ...t, subject: `bench.publish.${t.tenantId}.${t.agent}` }));
    const result = await publishTurns(jetstream(nc), turns, window);
    const seconds = (result.finishedAt - result.startedAt) / 1000;
    return {
      seconds,
      turnsPerSecond: turns.length / seconds,
      messagesPerSecond: corpus.messages / seconds,
      megabytesPerSecond: corpus.payloadBytes / 1e6 / seconds,
    };
  } finally {
    await jsm.streams.delete(name).catch(() => undefined);
  }
}

const program = new Command('bench:ingest')
  .description('Sustained ingest rate (publish → durable in Postgres) against a COPY of the same rows.')
  .option('--turns <n>', 'turns to publish', integer(1), DEFAULT_CORPUS.turns)
  .option('--tenants <n>', 'tenants', integer(1), DEFAULT_CORPUS.tenants)
  .option('--agents <n>', 'agents per tenant', integer(1), DEFAULT_CORPUS.agentsPerTenant)
  .option('--conversations <n>', 'conversations', integer(1), DEFAULT_CORPUS.conversations)
  .option('--seed <n>', 'corpus seed', integer(0), DEFAULT_CORPUS.seed)
  .option(
    '--content <distribution>',
    `message lengths: short (chat, 50–600 characters) or long (LongMemEval-like: median 430, mean ≈ 1,000)`,
    (value: string) => {
      if (!(CONTENT_DISTRIBUTIONS as readonly string[]).includes(value))
        throw new InvalidArgumentError(`one of ${CONTENT_DISTRIBUTIONS.join(', ')}`);
      return value as ContentDistribution;
    },
    'short',
  )
  .option('--warmup <n>', 'turns ingested (another tenant) before the measurement', integer(0), 1000)
  .option('--window <n>', 'publishes awaiting their JetStream ack at once', integer(1), 1024)
  .option('--batch-size <n>', 'CONSUMER_BATCH_SIZE for ingest (default: the topology’s)', integer(1))
  .option('--concurrency <n>', 'CONSUMER_CONCURRENCY for ingest', integer(1))
  .option('--linger-ms <n>', 'CONSUMER_LINGER_MS for ingest', integer(0))
  .option('--pool-size <n>', 'DATABASE_POOL_SIZE for ingest', integer(1))
  .option('--log-level <level>', 'LOG_LEVEL of the ingest process', 'info')
  .option(
    '--cpu-prof',
    'sample the CPU of ingest during the measurement (V8 profiler) and print where its time went',
    false,
  )
  .option(
    '--json',
    'print {"content","messagesPerSecond","megabytesPerSecond","copyRowsPerSecond","ratio"} as the last line of stdout',
    false,
  )
  .option(
    '--out <file>',
    'where to write the full result (relative to the repository; default bench-results/ingest.json, ingest-long.json for --content long)',
  );

runBench(program, main);
