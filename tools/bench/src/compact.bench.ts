#!/usr/bin/env node
/**
 * `npm run bench:compact [-- --json]`: the compactor's summary tree with the built-in model, through
 * the real pipeline: a private nats-server, a migrated scratch database, and gerty, ingest and
 * compactor as their own processes (service defaults: leaves of 40 messages / 4,000 tokens, fan-out 8).
 *
 * 1. Throughput: a backlog of conversations is ingested while no compactor runs; then the compactor
 *    starts and works it off. leaves/s = leaves written ÷ (last leaf written − the compactor's
 *    consumer started). The facts consumer works off the same backlog at the same time, as it would.
 * 2. Latency: other conversations are fed turns at a steady pace; for each leaf announced on
 *    mem.summary.created, the time from its newest message being stored (messages.ingested_at: the
 *    message that crossed the leaf threshold) to the bench receiving the announcement; p50/p95.
 */
import { resolve } from 'node:path';
import { Command } from 'commander';
import { Client } from 'pg';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Consumers, decodeMessage, Streams, Subjects, SummaryCreatedSchema } from '@engram/contracts';
import { createMigratedDatabase, startNatsServer, waitFor, type ServiceProcess } from '@engram/testing';
import {
  compactHeadline,
  leafLatencies,
  leavesPerSecond,
  renderCompactReport,
  type CompactBenchResult,
  type LeafAnnouncement,
} from './compact/compact-report';
import { DEFAULT_CORPUS, generateTurnCorpus } from './corpus/turn-corpus';
import { PublishWindow } from './publish/publish-window';
import { publishTurns } from './publish/turn-publisher';
import { writeResult } from './report/bench-report';
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
const BACKLOG_TENANT = 'backlog';
const STEADY_TENANT = 'steady';

interface Flags {
  backlogTurns: number;
  backlogConversations: number;
  steadyConversations: number;
  steadyRate: number;
  steadySeconds: number;
  seed: number;
  timeout: number;
  logLevel: string;
  json: boolean;
  out: string;
}

const progress = progressFor('bench:compact');
const cleanups = new Cleanups(progress).installSignalHandlers();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(flags: Flags): Promise<void> {
  const corpus = (tenant: string, turns: number, conversations: number, seed: number) =>
    generateTurnCorpus({
      ...DEFAULT_CORPUS,
      turns,
      conversations,
      tenants: 1,
      agentsPerTenant: 2,
      seed,
      tenantNames: [tenant],
    });
  const backlog = corpus(BACKLOG_TENANT, flags.backlogTurns, flags.backlogConversations, flags.seed);
  const steady = corpus(
    STEADY_TENANT,
    Math.ceil(flags.steadyRate * flags.steadySeconds),
    flags.steadyConversations,
    flags.seed + 1,
  );
  progress(
    `backlog: ${backlog.turns.length} turns, ${backlog.messages} messages; steady: ${steady.turns.length} turns, ${steady.messages} messages`,
  );

  const services: ServiceProcess[] = [];
  let nc: NatsConnection | undefined;
  try {
    const nats = await startNatsServer();
    cleanups.add(() => nats.stop());
    const db = await createMigratedDatabase('compact');
    cleanups.add(() => db.drop());
    progress(`nats-server ${nats.url}; database ${db.name}`);
    const admin = new Client({ connectionString: db.adminUrl, application_name: 'engram-bench-compact' });
    await admin.connect();
    cleanups.add(() => admin.end());
    const machine = await describeMachine(admin);
    const count = async (text: string, params: unknown[] = []) =>
      Number((await admin.query<{ n: string }>(text, params)).rows[0]!.n);

    const env = { NATS_URL: nats.url, DATABASE_URL: db.appUrl, LOG_LEVEL: flags.logLevel };
    for (const name of ['gerty', 'ingest'] as const)
      services.push(await startReadyService(cleanups, name, env));
    const ingest = services[1]!;
    await waitFor(
      'ingest consuming',
      async () => !!consumerSettings(ingest, Consumers.ingestTurns.durable),
      30_000,
    );

    nc = await connect({ servers: nats.url, name: 'engram-bench-compact' });
    const connection = nc;
    cleanups.add(() => connection.close());
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);

    // 1. The backlog, stored before any compactor runs.
    progress(`ingesting the backlog (${flags.backlogConversations} conversations)`);
    await publishTurns(js, backlog.turns, 512);
    await waitFor(
      'the backlog stored',
      async () =>
        (await count(`SELECT count(*) AS n FROM messages WHERE tenant_id = $1`, [BACKLOG_TENANT])) ===
        backlog.messages,
      flags.timeout * 1000,
      200,
    );

    const compactor = await startReadyService(cleanups, 'compactor', env);
    services.push(compactor);
    await waitFor(
      'the compactor consuming',
      async () => !!consumerSettings(compactor, Consumers.compactorSummaries.durable),
      30_000,
      10,
    );
    const startedAtMs = Date.now();
    progress(
      `compactor consuming (${consumerSettings(compactor, Consumers.compactorSummaries.durable)}); working off the backlog`,
    );
    let lastLine = 0;
    await waitFor(
      'the backlog compacted',
      async () => {
        const idle = (await pending(jsm, Consumers.compactorSummaries.durable)) === 0;
        if (Date.now() - lastLine > 5000) {
          lastLine = Date.now();
          progress(
            `  ${((Date.now() - startedAtMs) / 1000).toFixed(0)} s: ${await count(`SELECT count(*) AS n FROM summaries WHERE depth = 0`)} leaves`,
          );
        }
        return idle;
      },
      flags.timeout * 1000,
      250,
    );
    const tree = await admin.query<{ depth: number; n: string; last_ms: string }>(
      `SELECT depth, count(*) AS n, (extract(epoch FROM max(created_at)) * 1000)::text AS last_ms FROM summaries WHERE tenant_id = $1 GROUP BY depth`,
      [BACKLOG_TENANT],
    );
    const atDepth = (d: number) => tree.rows.find((r) => Number(r.depth) === d);
    const leaves = Number(atDepth(0)?.n ?? 0);
    const lastLeafAtMs = Number(atDepth(0)?.last_ms ?? startedAtMs);
    const summarisedMessages = await count(
      `SELECT count(*) AS n FROM summary_sources ss JOIN summaries s ON s.id = ss.summary_id WHERE s.tenant_id = $1 AND s.depth = 0 AND ss.source_kind = 'message'`,
      [BACKLOG_TENANT],
    );
    const backlogSeconds = (lastLeafAtMs - startedAtMs) / 1000;
    const rate = leavesPerSecond(leaves, startedAtMs, lastLeafAtMs);
    progress(`backlog: ${leaves} leaves in ${backlogSeconds.toFixed(1)} s (${rate.toFixed(1)} leaves/s)`);

    // 2. Steady feeding; each leaf's announcement against its newest message's storage.
    const announcements: LeafAnnouncement[] = [];
    const sub = nc.subscribe(Subjects.summaryCreated(STEADY_TENANT));
    void (async () => {
      for await (const m of sub) {
        const receivedAtMs = Date.now();
        const event = decodeMessage(SummaryCreatedSchema, m.data, { strict: false });
        if (event.depth === 0) announcements.push({ summaryId: event.summaryId, receivedAtMs });
      }
    })();
    progress(
      `feeding ${flags.steadyConversations} conversations at ${flags.steadyRate} turns/s for ${flags.steadySeconds} s`,
    );
    const window = new PublishWindow(js, 256);
    const steadyStart = performance.now();
    for (let i = 0; i < steady.turns.length; i++) {
      const due = steadyStart + (i * 1000) / flags.steadyRate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      await window.waitForRoom();
      window.send(steady.turns[i]!);
    }
    await window.drain();
    const steadySeconds = (performance.now() - steadyStart) / 1000;
    await waitFor(
      'the steady turns stored',
      async () =>
        (await count(`SELECT count(*) AS n FROM messages WHERE tenant_id = $1`, [STEADY_TENANT])) ===
        steady.messages,
      120_000,
      200,
    );
    await waitFor(
      'the steady turns compacted',
      async () => (await pending(jsm, Consumers.compactorSummaries.durable)) === 0,
      120_000,
      100,
    );
    await sleep(1000); // announcements in flight
    sub.unsubscribe();
    const stored = await admin.query<{ id: string; crossed_ms: string; created_ms: string }>(
      `SELECT s.id::text AS id, (extract(epoch FROM max(m.ingested_at)) * 1000)::text AS crossed_ms, (extract(epoch FROM s.created_at) * 1000)::text AS created_ms
         FROM summaries s
         JOIN summary_sources ss ON ss.summary_id = s.id AND ss.source_kind = 'message'
         JOIN messages m ON m.id = ss.source_id
        WHERE s.tenant_id = $1 AND s.depth = 0
        GROUP BY s.id, s.created_at`,
      [STEADY_TENANT],
    );
    const latency = leafLatencies(
      announcements,
      stored.rows.map((r) => ({
        summaryId: r.id,
        crossedAtMs: Number(r.crossed_ms),
        createdAtMs: Number(r.created_ms),
      })),
    );

    const deadLetters = (await jsm.streams.info(Streams.deadLetters.name)).state.messages;
    const result: CompactBenchResult = {
      benchmark: 'compact',
      finishedAt: new Date().toISOString(),
      machine,
      settings: {
        model: 'built-in',
        seed: flags.seed,
        consumer: consumerSettings(compactor, Consumers.compactorSummaries.durable) ?? 'service default',
        leafMessages: process.env['COMPACTOR_LEAF_MESSAGES'] ?? 'service default (40)',
        leafTokens: process.env['COMPACTOR_LEAF_TOKENS'] ?? 'service default (4000)',
        fanOut: process.env['COMPACTOR_FAN_OUT'] ?? 'service default (8)',
      },
      backlog: {
        conversations: new Set(backlog.turns.map((t) => `${t.agent}/${t.sessionKey}`)).size,
        turns: backlog.turns.length,
        messages: backlog.messages,
        leaves,
        branches: Number(atDepth(1)?.n ?? 0),
        roots: Number(atDepth(2)?.n ?? 0),
        seconds: backlogSeconds,
        leavesPerSecond: rate,
        messagesSummarisedPerSecond: backlogSeconds > 0 ? summarisedMessages / backlogSeconds : 0,
      },
      steady: {
        conversations: new Set(steady.turns.map((t) => `${t.agent}/${t.sessionKey}`)).size,
        turns: steady.turns.length,
        messages: steady.messages,
        turnsPerSecond: steady.turns.length / steadySeconds,
        seconds: steadySeconds,
        leaves: stored.rows.length,
        latency,
      },
      checks: {
        deadLetters,
        backlogMessagesSummarised: summarisedMessages,
        steadyLeavesAnnounced: new Set(announcements.map((a) => a.summaryId)).size,
        steadyLeavesStored: stored.rows.length,
        unmatchedAnnouncements: latency.unmatched,
        duplicatePublishes: window.duplicates,
      },
    };
    if (
      leaves === 0 ||
      latency.announced.count === 0 ||
      deadLetters !== 0 ||
      latency.unmatched !== 0 ||
      latency.announced.count !== stored.rows.length
    ) {
      throw new Error(
        `the compactor did not summarise as expected: ${JSON.stringify(result.checks)} (backlog leaves ${leaves})`,
      );
    }
    const out = resolve(REPO_ROOT, flags.out);
    writeResult(out, result);
    console.log(renderCompactReport(result));
    console.log(`\nwritten to ${out}`);
    if (flags.json) console.log(JSON.stringify(compactHeadline(result)));
  } catch (error) {
    dumpServiceOutput(services);
    throw error;
  } finally {
    await cleanups.run();
  }
}

/** Events the durable consumer has not acknowledged yet. */
async function pending(jsm: JetStreamManager, durable: string): Promise<number> {
  const info = await jsm.consumers.info(Streams.events.name, durable);
  return info.num_pending + info.num_ack_pending;
}

const program = new Command('bench:compact')
  .description(
    'Compactor: leaf summaries per second on a backlog, and threshold crossed → summary.created at a steady pace (built-in model).',
  )
  .option('--backlog-turns <n>', 'turns ingested before the compactor starts', integer(1), 4000)
  .option('--backlog-conversations <n>', 'conversations the backlog is spread over', integer(1), 40)
  .option('--steady-conversations <n>', 'conversations fed at a steady pace', integer(1), 20)
  .option('--steady-rate <n>', 'turns per second fed (over all steady conversations)', decimal(0.1), 20)
  .option('--steady-seconds <n>', 'how long the steady feeding lasts', integer(1), 60)
  .option('--seed <n>', 'corpus seed', integer(0), DEFAULT_CORPUS.seed)
  .option(
    '--timeout <s>',
    'seconds to wait for the backlog to be stored, and to be compacted',
    integer(1),
    600,
  )
  .option('--log-level <level>', 'LOG_LEVEL of the services', 'info')
  .option('--json', 'print {"leavesPerSecond","leafLatencyP95Ms"} as the last line of stdout', false)
  .option(
    '--out <file>',
    'where to write the full result (relative to the repository)',
    'bench-results/compact.json',
  );

runBench(program, main);
