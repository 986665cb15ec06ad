#!/usr/bin/env node
/**
 * `npm run bench:embed`: the built-in model's texts/s on one core, and the end-to-end lag
 * from "message stored" to "vector written" at a steady publish rate through the real
 * ingest → embedder → gerty pipeline. See BENCHMARKS.md.
 */
import { resolve } from 'node:path';
import { Command } from 'commander';
import { Client } from 'pg';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Consumers, Rpcs, Streams } from '@engram/contracts';
import {
  createMigratedDatabase,
  startNatsServer,
  waitFor,
  type NatsServerHandle,
  type ServiceProcess,
} from '@engram/testing';
import {
  DEFAULT_CORPUS,
  generateTurnCorpus,
  type CorpusOptions,
  type CorpusTurn,
  type TurnCorpus,
} from './corpus/turn-corpus';
import { measureLocalThroughput, type LocalThroughput } from './embed/local-throughput';
import { ActivityByService } from './measure/activity-by-service';
import { latencyTimeline, latencyTrend, summarizeLatencies } from './measure/latency-stats';
import {
  cpuBetween,
  parentOf,
  processAndChildren,
  processesMatching,
  snapshotCpu,
  type CpuSnapshot,
  type ProcessGroup,
} from './measure/process-cpu';
import { waitForEmbeddedRows } from './measure/embedded-rows';
import { scrapeMetricSums } from './measure/prometheus-text';
import { scrapeConsumerMetrics, type ConsumerMetrics } from './measure/service-metrics';
import { publishPaced } from './publish/paced-publisher';
import { writeResult } from './report/bench-report';
import { EMBED_TARGETS, embedHeadline, renderEmbedTable, type EmbedBenchResult } from './report/embed-report';
import { describeMachine } from './report/machine';
import {
  Cleanups,
  consumerSettings,
  decimal,
  dumpServiceOutput,
  integer,
  progressFor,
  runBench,
  startReadyService,
} from './run/lifecycle';

const REPO_ROOT = resolve(__dirname, '../../..');
/** A lag growing by less than this (ms per second of publishing; 1.5 s over a minute) counts as kept up. */
const KEPT_UP_TREND = 25;

interface Flags {
  rate: number;
  seconds: number;
  warmup: number;
  tickMs: number;
  window: number;
  tenants: number;
  conversations: number;
  seed: number;
  toolShare: number;
  local: boolean;
  localCount: number;
  localBatch: number;
  core: number;
  embedderBatchSize?: number;
  embedderLingerMs?: number;
  embedderConcurrency?: number;
  gertyConcurrency?: number;
  ingestBatchSize?: number;
  ingestConcurrency?: number;
  ingestLingerMs?: number;
  drainTimeout: number;
  messageIndex: string;
  logLevel: string;
  json: boolean;
  out: string;
}

const progress = progressFor('bench:embed');
const cleanups = new Cleanups(progress).installSignalHandlers();

/** The message texts of a corpus (what gets embedded), for the model-only pass on realistic lengths. */
function corpusTexts(corpus: TurnCorpus, limit: number): string[] {
  const decoder = new TextDecoder();
  const texts: string[] = [];
  for (const turn of corpus.turns) {
    const event = JSON.parse(decoder.decode(turn.payload)) as { messages: Array<{ content: string }> };
    for (const m of event.messages) if (m.content) texts.push(m.content);
    if (texts.length >= limit) break;
  }
  return texts.slice(0, limit);
}

/** Messages of a corpus without content whose tool call the embedder has Gerty describe first. */
function contentless(turns: readonly CorpusTurn[]): number {
  const decoder = new TextDecoder();
  let n = 0;
  for (const turn of turns) {
    const event = JSON.parse(decoder.decode(turn.payload)) as {
      messages: Array<{ content: string; toolName?: string }>;
    };
    for (const m of event.messages) if (!m.content && m.toolName) n++;
  }
  return n;
}

async function main(flags: Flags): Promise<void> {
  // Enough turns for the window at any mix (every turn has at least two messages); the pacer stops at the deadline.
  const corpusOptions: CorpusOptions = {
    ...DEFAULT_CORPUS,
    turns: Math.ceil((flags.rate * flags.seconds) / 2) + 100,
    tenants: flags.tenants,
    conversations: flags.conversations,
    seed: flags.seed,
    toolTurnShare: flags.toolShare,
  };
  const corpus = generateTurnCorpus(corpusOptions);
  const warmupTenants = Array.from({ length: flags.tenants }, (_, i) => `warmup${i + 1}`);
  const warmup = generateTurnCorpus({
    ...corpusOptions,
    turns: Math.ceil((flags.rate * flags.warmup) / 2) + 100,
    seed: flags.seed + 1,
    tenantNames: warmupTenants,
  });

  // 1. The model alone, before anything else of ours runs.
  let local: LocalThroughput | null = null;
  if (flags.local) {
    progress(`local model: ${flags.localCount} short texts on one core …`);
    const child = new AbortController();
    cleanups.add(async () => child.abort());
    local = await measureLocalThroughput({
      signal: child.signal,
      count: flags.localCount,
      batchSize: flags.localBatch,
      core: flags.core,
      corpusTexts: corpusTexts(corpus, 20_000),
    });
    progress(`local model: ${Math.round(local.short.textsPerSecond)} texts/s (${local.pinning})`);
  }

  let nats: NatsServerHandle | undefined;
  const services: ServiceProcess[] = [];
  let nc: NatsConnection | undefined;
  try {
    nats = await startNatsServer();
    cleanups.add(() => nats!.stop());
    const db = await createMigratedDatabase('embed');
    cleanups.add(() => db.drop());
    progress(`nats-server ${nats.url}; database ${db.name}`);

    const admin = new Client({ connectionString: db.adminUrl, application_name: 'engram-bench-embed' });
    await admin.connect();
    cleanups.add(() => admin.end());
    const machine = await describeMachine(admin);
    const messageIndex = await applyMessageIndex(admin, flags.messageIndex);
    if (messageIndex !== 'as migrated')
      progress(`EXPERIMENT: vector index ${messageIndex} (not what the migrations create)`);
    const sampler = new Client({ connectionString: db.adminUrl, application_name: 'engram-bench-activity' });
    await sampler.connect();
    cleanups.add(() => sampler.end());
    const activity = new ActivityByService(sampler, db.name);

    // 2. The pipeline: gerty (the embedder asks it for its model when it starts), ingest, embedder.
    const base = { NATS_URL: nats.url, DATABASE_URL: db.appUrl, LOG_LEVEL: flags.logLevel };
    const env: Record<string, Record<string, string>> = { gerty: {}, ingest: {}, embedder: {} };
    if (flags.gertyConcurrency !== undefined)
      env['gerty']!['GERTY_MODEL_CONCURRENCY'] = String(flags.gertyConcurrency);
    if (flags.ingestBatchSize !== undefined)
      env['ingest']!['CONSUMER_BATCH_SIZE'] = String(flags.ingestBatchSize);
    if (flags.ingestConcurrency !== undefined)
      env['ingest']!['CONSUMER_CONCURRENCY'] = String(flags.ingestConcurrency);
    if (flags.ingestLingerMs !== undefined)
      env['ingest']!['CONSUMER_LINGER_MS'] = String(flags.ingestLingerMs);
    if (flags.embedderBatchSize !== undefined)
      env['embedder']!['EMBEDDER_BATCH_SIZE'] = String(flags.embedderBatchSize);
    if (flags.embedderLingerMs !== undefined)
      env['embedder']!['EMBEDDER_LINGER_MS'] = String(flags.embedderLingerMs);
    if (flags.embedderConcurrency !== undefined)
      env['embedder']!['EMBEDDER_CONCURRENCY'] = String(flags.embedderConcurrency);
    const start = async (name: string) => {
      const service = await startReadyService(cleanups, name, { ...base, ...env[name] });
      services.push(service);
      return service;
    };
    const gerty = await start('gerty');
    const ingest = await start('ingest');
    const embedder = await start('embedder');
    await waitFor(
      'ingest and embedder consuming',
      async () =>
        !!consumerSettings(ingest, Consumers.ingestTurns.durable) &&
        !!consumerSettings(embedder, Consumers.embedderMessages.durable),
      30_000,
    );
    const consumers = {
      [Consumers.ingestTurns.durable]: consumerSettings(ingest, Consumers.ingestTurns.durable)!,
      [Consumers.embedderMessages.durable]:
        `${consumerSettings(embedder, Consumers.embedderMessages.durable)!}, linger ${flags.embedderLingerMs ?? 'default'} ms`.replace(
          'default ms',
          'default',
        ),
      gerty: `model concurrency ${flags.gertyConcurrency ?? 'default'}`,
    };
    progress(
      `gerty (pid ${gerty.pid}), ingest (pid ${ingest.pid}), embedder (pid ${embedder.pid}) ready; ${JSON.stringify(consumers)}`,
    );

    nc = await connect({ servers: nats.url, name: 'engram-bench-embed' });
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);

    const backendPid = Number(
      (await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid,
    );
    const postmaster = parentOf(backendPid) ?? backendPid;
    const natsPort = String(nats.port);
    const groups: ProcessGroup[] = [
      { name: 'ingest', pids: () => [ingest.pid] },
      { name: 'embedder', pids: () => [embedder.pid] },
      { name: 'gerty', pids: () => [gerty.pid] },
      { name: 'postgres', pids: () => processAndChildren(postmaster) },
      { name: 'nats', pids: () => processesMatching(['nats-server', natsPort]) },
      { name: 'bench', pids: () => [process.pid] },
    ];
    const scrapeAll = async () => ({
      ingest: await scrapeConsumerMetrics(ingest.httpPort, Consumers.ingestTurns.durable),
      embedder: await scrapeConsumerMetrics(embedder.httpPort, Consumers.embedderMessages.durable),
      toolSynthesis: await scrapeConsumerMetrics(embedder.httpPort, Consumers.embedderToolsynth.durable),
      gerty: await scrapeMetricSums(gerty.httpPort, {
        embedCalls: { name: 'engram_rpc_seconds_count', labels: { rpc: Rpcs.gertyEmbed.subject } },
        embedSeconds: { name: 'engram_rpc_seconds_sum', labels: { rpc: Rpcs.gertyEmbed.subject } },
        completeCalls: { name: 'engram_rpc_seconds_count', labels: { rpc: Rpcs.gertyComplete.subject } },
        completeSeconds: { name: 'engram_rpc_seconds_sum', labels: { rpc: Rpcs.gertyComplete.subject } },
        texts: { name: 'engram_gerty_texts_embedded_total' },
      }),
    });

    // 3. The schedule: warm-up tenants, then the measured ones, at one steady rate without a pause.
    let cpuBefore: CpuSnapshot | undefined;
    let metricsBefore: ReturnType<typeof scrapeAll> | undefined;
    let measuring = false;
    let publishing = true;
    const backlog: Array<{ atS: number; ingest: number; embedder: number }> = [];
    const sampleBacklog = (async () => {
      while (publishing) {
        await new Promise((r) => setTimeout(r, 1000));
        if (!measuring || !publishing) continue;
        const [turns, events] = await Promise.all([
          jsm.consumers.info(Streams.turns.name, Consumers.ingestTurns.durable),
          jsm.consumers.info(Streams.events.name, Consumers.embedderMessages.durable),
        ]);
        backlog.push({
          atS: backlog.length + 1,
          ingest: turns.num_pending + turns.num_ack_pending,
          embedder: events.num_pending + events.num_ack_pending,
        });
      }
    })();
    progress(
      `publishing ${flags.rate} messages/s: ${flags.warmup} s warm-up, then ${flags.seconds} s measured`,
    );
    const paced = await publishPaced(
      js,
      [
        { name: 'warmup', turns: warmup.turns, seconds: flags.warmup },
        { name: 'measured', turns: corpus.turns, seconds: flags.seconds },
      ],
      {
        messagesPerSecond: flags.rate,
        tickMs: flags.tickMs,
        window: flags.window,
        onPhase: (name) => {
          if (name !== 'measured') return;
          measuring = true;
          cpuBefore = snapshotCpu(groups);
          metricsBefore = scrapeAll();
          activity.start();
        },
      },
    ).finally(() => (publishing = false));
    const cpuAfter = snapshotCpu(groups);
    const postgresActivity = await activity.stop();
    const metricsAfter = await scrapeAll();
    await sampleBacklog;
    const measuredPhase = paced.phases.find((p) => p.name === 'measured');
    if (!measuredPhase || !cpuBefore || !metricsBefore)
      throw new Error(`the schedule ended before the measured window: ${JSON.stringify(paced.phases)}`);
    if (measuredPhase.ranOut) throw new Error('the corpus ran out before the window ended');
    const published = corpus.turns.slice(0, measuredPhase.turns);
    const expectedRows = measuredPhase.messages;
    progress(
      `published ${measuredPhase.messages} messages in ${((measuredPhase.endedAtMs - measuredPhase.startedAtMs) / 1000).toFixed(1)} s ` +
        `(${Math.round(measuredPhase.messagesPerSecond)}/s); waiting for every vector`,
    );

    // 4. Every message of the window stored and embedded (polling only now, so as not to load Postgres during the window).
    const tenants = corpus.turns.length ? [...new Set(corpus.turns.map((t) => t.tenantId))] : [];
    const drained = await waitForEmbeddedRows(admin, {
      tenants,
      expectedRows,
      timeoutMs: flags.drainTimeout * 1000,
      stallMs: 30_000,
    });
    if (drained.gaveUp)
      progress(
        `gave up waiting (${drained.gaveUp}): ${drained.rows}/${expectedRows} rows, ${drained.missing} without a vector`,
      );

    // 5. The lags, from the rows' own timestamps and the publish times.
    const rows = (
      await admin.query<{
        tenant_id: string;
        turn_id: string;
        synthesised: boolean;
        ingested_ms: number;
        embedded_ms: number | null;
      }>(
        `SELECT m.tenant_id, m.turn_id, m.content_synthesised AS synthesised,
                extract(epoch FROM m.ingested_at)::float8 * 1000 AS ingested_ms,
                extract(epoch FROM e.embedded_at)::float8 * 1000 AS embedded_ms
           FROM messages m LEFT JOIN embeddings e ON e.item_kind = 'message' AND e.item_id = m.id
          WHERE m.tenant_id = ANY($1)`,
        [tenants],
      )
    ).rows;
    const byTurn = new Map(published.map((t) => [`${t.tenantId}/${t.turnId}`, t.msgId]));
    const storedToVector: Array<{ startMs: number; latencyMs: number }> = [];
    const described: number[] = [];
    const publishToStored: number[] = [];
    const publishToVector: number[] = [];
    let withVector = 0;
    let lastEmbeddedMs = 0; // of the messages with their own content
    for (const row of rows) {
      const msgId = byTurn.get(`${row.tenant_id}/${row.turn_id}`);
      const sentMs = msgId ? paced.sentAtMs.get(msgId) : undefined;
      if (sentMs === undefined) continue; // not published in the window (cannot happen: the corpus is the window's)
      publishToStored.push(row.ingested_ms - sentMs);
      if (row.embedded_ms === null) continue;
      withVector++;
      if (row.synthesised) {
        described.push(row.embedded_ms - row.ingested_ms);
        continue;
      }
      lastEmbeddedMs = Math.max(lastEmbeddedMs, row.embedded_ms);
      publishToVector.push(row.embedded_ms - sentMs);
      storedToVector.push({ startMs: sentMs, latencyMs: row.embedded_ms - row.ingested_ms });
    }
    // What each stage got through during the window (every tenant: the warm-up's tail counts too).
    const stages = (
      await admin.query<{ stored: string; embedded: string }>(
        `SELECT (SELECT count(*) FROM messages WHERE ingested_at >= to_timestamp($1 / 1000.0) AND ingested_at < to_timestamp($2 / 1000.0)) AS stored,
                (SELECT count(*) FROM embeddings WHERE item_kind = 'message' AND embedded_at >= to_timestamp($1 / 1000.0) AND embedded_at < to_timestamp($2 / 1000.0)) AS embedded`,
        [measuredPhase.startedAtMs, measuredPhase.endedAtMs],
      )
    ).rows[0]!;
    const publishAck = published.map((t) => paced.ackedAtMs.get(t.msgId)! - paced.sentAtMs.get(t.msgId)!);
    const delta = (after: ConsumerMetrics, before: ConsumerMetrics) => ({
      batches: after.batches - before.batches,
      seconds: after.handlerSeconds - before.handlerSeconds,
      acked: (after.outcomes['ack'] ?? 0) - (before.outcomes['ack'] ?? 0),
      retries: (after.outcomes['retry'] ?? 0) - (before.outcomes['retry'] ?? 0),
    });
    const before = await metricsBefore;
    const ingestM = delta(metricsAfter.ingest, before.ingest);
    const embedM = delta(metricsAfter.embedder, before.embedder);
    const toolM = delta(metricsAfter.toolSynthesis, before.toolSynthesis);
    const gertyD = Object.fromEntries(
      Object.entries(metricsAfter.gerty).map(([k, v]) => [k, v - (before.gerty[k] ?? 0)]),
    ) as Record<string, number>;
    const wallSeconds = (measuredPhase.endedAtMs - measuredPhase.startedAtMs) / 1000;
    const cpuSeconds = cpuBetween(cpuBefore, cpuAfter);
    const deadLetters = (await jsm.streams.info(Streams.deadLetters.name)).state.messages;
    const sweepEmbedded = [...embedder.output().matchAll(/sweep embedded (\d+) rows/g)].reduce(
      (sum, m) => sum + Number(m[1]),
      0,
    );
    const withoutVector = rows.length - withVector;
    const checksPassed =
      rows.length === expectedRows && withoutVector === 0 && deadLetters === 0 && paced.duplicates === 0;
    const storedToVectorSummary = summarizeLatencies(storedToVector.map((x) => x.latencyMs));
    const timeline = latencyTimeline(storedToVector, measuredPhase.startedAtMs, 10);
    // Kept up: the lag does not grow over the window (a backlog that builds up shows as a rising lag).
    const lagTrend = latencyTrend(storedToVector);
    const keptUp = lagTrend < KEPT_UP_TREND;
    const sustained = measuredPhase.messagesPerSecond >= flags.rate * 0.98 && paced.windowFullTicks === 0;
    const toolCalls = contentless(published);

    const result: EmbedBenchResult = {
      benchmark: 'embed',
      finishedAt: new Date().toISOString(),
      machine,
      local,
      settings: {
        messagesPerSecond: flags.rate,
        seconds: flags.seconds,
        warmupSeconds: flags.warmup,
        tickMs: flags.tickMs,
        publishWindow: flags.window,
        env,
        consumers,
        messageIndex,
        logLevel: flags.logLevel,
      },
      corpus: {
        seed: flags.seed,
        tenants: flags.tenants,
        conversations: new Set(published.map((t) => `${t.tenantId}/${t.agent}/${t.sessionKey}`)).size,
        toolTurnShare: flags.toolShare,
        turns: published.length,
        messages: expectedRows,
        messagesWithContent: expectedRows - toolCalls,
        toolCallsToDescribe: toolCalls,
        meanContentChars: Math.round(corpus.contentChars / corpus.messages),
        warmupTurns: paced.phases[0]?.turns ?? 0,
        warmupMessages: paced.phases[0]?.messages ?? 0,
      },
      publishing: {
        messagesPerSecond: measuredPhase.messagesPerSecond,
        turnsPerSecond: measuredPhase.turns / wallSeconds,
        seconds: wallSeconds,
        maxBehindMessages: paced.maxBehindMessages,
        maxTickGapMs: paced.maxTickGapMs,
        windowFullTicks: paced.windowFullTicks,
        sustained,
        publishAck: summarizeLatencies(publishAck),
      },
      lag: {
        storedToVector: storedToVectorSummary,
        publishToStored: summarizeLatencies(publishToStored),
        publishToVector: summarizeLatencies(publishToVector),
        describedToolCalls: summarizeLatencies(described),
        timeline,
        trendMsPerSecond: Math.round(lagTrend * 10) / 10,
        keptUp,
        drainMs: lastEmbeddedMs - measuredPhase.lastSentAtMs,
      },
      throughput: {
        publishedPerSecond: measuredPhase.messagesPerSecond,
        storedPerSecond:
          Number(stages.stored) / ((measuredPhase.endedAtMs - measuredPhase.startedAtMs) / 1000),
        embeddedPerSecond:
          Number(stages.embedded) / ((measuredPhase.endedAtMs - measuredPhase.startedAtMs) / 1000),
      },
      pipeline: {
        ingest: {
          batches: ingestM.batches,
          meanBatchTurns: ingestM.batches ? ingestM.acked / ingestM.batches : 0,
          meanBatchMs: ingestM.batches ? (ingestM.seconds / ingestM.batches) * 1000 : 0,
        },
        embedder: {
          batches: embedM.batches,
          meanBatchEvents: embedM.batches ? embedM.acked / embedM.batches : 0,
          meanBatchMs: embedM.batches ? (embedM.seconds / embedM.batches) * 1000 : 0,
          retries: embedM.retries + toolM.retries,
          toolCallsDescribed: toolM.acked,
        },
        gerty: {
          embedCalls: gertyD['embedCalls']!,
          meanEmbedMs: gertyD['embedCalls'] ? (gertyD['embedSeconds']! / gertyD['embedCalls']) * 1000 : 0,
          textsEmbedded: gertyD['texts']!,
          meanTextsPerCall: gertyD['embedCalls'] ? gertyD['texts']! / gertyD['embedCalls'] : 0,
          completeCalls: gertyD['completeCalls']!,
          meanCompleteMs: gertyD['completeCalls']
            ? (gertyD['completeSeconds']! / gertyD['completeCalls']) * 1000
            : 0,
        },
        postgres: postgresActivity,
        backlog: {
          maxIngest: Math.max(0, ...backlog.map((b) => b.ingest)),
          maxEmbedder: Math.max(0, ...backlog.map((b) => b.embedder)),
          samples: backlog,
        },
      },
      cpu: {
        seconds: cpuSeconds,
        cores: Object.fromEntries(
          Object.entries(cpuSeconds).map(([k, v]) => [k, Math.round((v / wallSeconds) * 100) / 100]),
        ),
        wallSeconds,
      },
      targets: {
        ...EMBED_TARGETS,
        localMet: local ? local.short.textsPerSecond >= EMBED_TARGETS.localTextsPerSecondPerCore : null,
        lagMet: storedToVectorSummary.count > 0 && storedToVectorSummary.p95Ms < EMBED_TARGETS.lagP95Ms,
      },
      checks: {
        expectedRows,
        rows: rows.length,
        withVector,
        withoutVector,
        deadLetters,
        duplicatePublishes: paced.duplicates,
        sweepEmbedded,
        passed: checksPassed,
      },
    };
    const out = resolve(REPO_ROOT, flags.out);
    writeResult(out, result);
    console.log(renderEmbedTable(result));
    console.log(`\nwritten to ${out}`);
    if (!checksPassed)
      throw new Error(`the pipeline did not embed the window exactly: ${JSON.stringify(result.checks)}`);
    if (flags.json) console.log(JSON.stringify(embedHeadline(result)));
  } catch (error) {
    dumpServiceOutput(services);
    throw error;
  } finally {
    await nc?.close().catch(() => undefined);
    await cleanups.run();
  }
}

/**
 * A what-if, for finding where the time goes: the vector index as the migrations create
 * it ("default"), dropped ("none"), or rebuilt with other HNSW parameters
 * ("m=8,ef_construction=32"). Only this run's private database is changed.
 */
async function applyMessageIndex(admin: Client, spec: string): Promise<string> {
  if (spec === 'default') return 'as migrated';
  if (spec === 'none') {
    await admin.query('DROP INDEX embeddings_vector');
    return 'dropped';
  }
  const params = spec.split(',').map((p) => p.trim());
  if (!params.every((p) => /^(m|ef_construction)=\d+$/.test(p)))
    throw new Error(`--message-index: "${spec}" is not default, none or m=…,ef_construction=…`);
  await admin.query('DROP INDEX embeddings_vector');
  await admin.query(
    `CREATE INDEX embeddings_vector ON embeddings USING hnsw (embedding halfvec_cosine_ops) WITH (${params.map((p) => p.replace('=', ' = ')).join(', ')})`,
  );
  return `HNSW WITH (${params.join(', ')})`;
}

const program = new Command('bench:embed')
  .description(
    'The built-in model’s texts/s on one core, and the lag from "message stored" to "vector written" at a steady rate.',
  )
  .option('--rate <n>', 'messages published per second', integer(1), 1000)
  .option('--seconds <n>', 'length of the measured window', integer(1), 60)
  .option(
    '--warmup <n>',
    'seconds published (other tenants) before the window, at the same rate',
    integer(0),
    5,
  )
  .option('--tick-ms <n>', 'the publisher sends a slice every … ms', integer(1), 10)
  .option('--window <n>', 'publishes awaiting their JetStream ack at once', integer(1), 1024)
  .option('--tenants <n>', 'tenants', integer(1), DEFAULT_CORPUS.tenants)
  .option('--conversations <n>', 'conversations', integer(1), DEFAULT_CORPUS.conversations)
  .option('--seed <n>', 'corpus seed', integer(0), DEFAULT_CORPUS.seed)
  .option(
    '--tool-share <x>',
    'share of turns that call a tool (0 leaves them out)',
    decimal(0),
    DEFAULT_CORPUS.toolTurnShare,
  )
  .option('--no-local', 'skip the local model measurement')
  .option('--local-count <n>', 'short texts the local model embeds (timed)', integer(1000), 100_000)
  .option('--local-batch <n>', 'texts per embed() call in the local measurement', integer(1), 64)
  .option('--core <n>', 'the core the local measurement is pinned to (taskset -c)', integer(0), 0)
  .option('--embedder-batch-size <n>', 'EMBEDDER_BATCH_SIZE (default: the topology’s)', integer(1))
  .option('--embedder-linger-ms <n>', 'EMBEDDER_LINGER_MS', integer(0))
  .option('--embedder-concurrency <n>', 'EMBEDDER_CONCURRENCY (default: the topology’s)', integer(1))
  .option('--gerty-concurrency <n>', 'GERTY_MODEL_CONCURRENCY', integer(1))
  .option('--ingest-batch-size <n>', 'CONSUMER_BATCH_SIZE for ingest', integer(1))
  .option('--ingest-concurrency <n>', 'CONSUMER_CONCURRENCY for ingest', integer(1))
  .option('--ingest-linger-ms <n>', 'CONSUMER_LINGER_MS for ingest', integer(0))
  .option(
    '--drain-timeout <n>',
    'seconds to wait after the window for every vector (it also stops after 30 s without progress)',
    integer(1),
    600,
  )
  .option(
    '--message-index <spec>',
    'EXPERIMENT: the vector index (embeddings_vector): default (as migrated), none, or m=…,ef_construction=…',
    'default',
  )
  .option('--log-level <level>', 'LOG_LEVEL of the services', 'info')
  .option('--json', 'print {"localTextsPerSecondPerCore","lagP95Ms"} as the last line of stdout', false)
  .option(
    '--out <file>',
    'where to write the full result (relative to the repository)',
    'bench-results/embed.json',
  );

runBench(program, main);
