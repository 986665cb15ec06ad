#!/usr/bin/env node
/**
 * `npm run bench:freshness [-- --json]`: how soon a stored message is found by memory_search
 * from the tenant's in-memory index (the default consistency), under a steady ingest of 1,000
 * messages/s, and what applying the events costs other searches. Services run as their own
 * processes on a private nats-server and scratch database: gerty (built-in model), ingest and
 * retrieval. See BENCHMARKS.md, "Search freshness".
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { Client } from 'pg';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { decodeMessage, MessageStoredSchema, Rpcs, Subjects } from '@engram/contracts';
import { callRpc } from '@engram/messaging';
import { createMigratedDatabase, startNatsServer, waitFor } from '@engram/testing';
import { DEFAULT_CORPUS, generateTurnCorpus } from './corpus/turn-corpus';
import { summarizeLatencies, type LatencySummary } from './measure/latency-stats';
import { publishPaced } from './publish/paced-publisher';
import { publishTurns } from './publish/turn-publisher';
import { writeResult } from './report/bench-report';
import { describeMachine, type MachineDescription } from './report/machine';
import { Cleanups, integer, progressFor, runBench, startReadyService } from './run/lifecycle';
import { runClosedLoop } from './search/closed-loop';

const REPO_ROOT = resolve(__dirname, '../../..');
const TENANT = 'fresh';
const AGENT = 'probe-agent';

interface Flags {
  rate: number;
  seconds: number;
  preload: number;
  clients: number;
  logLevel: string;
  json: boolean;
  out: string;
}

interface FreshnessResult {
  readonly benchmark: 'freshness';
  readonly finishedAt: string;
  readonly machine: MachineDescription;
  readonly settings: Flags;
  readonly preloadedMessages: number;
  /** Messages/s the paced publisher reached. */
  readonly messagesPerSecond: number;
  /** Stored (the row visible to another connection) → the sending of the first memory_search that found it, per probe. */
  readonly freshness: LatencySummary;
  /** Stored → its message.stored event heard on the bus (the outbox's part of freshness; may be below 0 by the poll's step). */
  readonly storedToEvent: LatencySummary;
  /** Probes first found in an answer ranked by Postgres rather than the index. */
  readonly probesNotFromIndex: number;
  readonly searchIdle: LatencySummary;
  readonly searchUnderIngest: LatencySummary;
}

const progress = progressFor('bench:freshness');
const cleanups = new Cleanups(progress).installSignalHandlers();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A word the english parser keeps whole and nothing else contains. */
const token = () => [...randomBytes(10)].map((b) => String.fromCharCode(97 + (b % 26))).join('') + 'fresh';

function search(nc: NatsConnection, query: string, topK = 10) {
  return callRpc(
    nc,
    Rpcs.search,
    { query, topK, recordAccess: false, filters: { kinds: ['message'] } },
    { tenantId: TENANT, timeoutMs: 10_000 },
  );
}

/**
 * One probe: a turn with a unique word, then how long from when its row is visible in the store
 * (polled every 2 ms) to the sending of the first memory_search that finds it (searches sent one
 * after another, 2 ms apart: the figure is exact to the duration of the search before it), and
 * what ranked that answer.
 */
async function probe(
  nc: NatsConnection,
  admin: Client,
  seq: number,
  heard: Map<string, number>,
): Promise<{ ms: number; by: string; eventMs: number | null }> {
  const word = token();
  const turnId = `probe-${seq}-${word}`;
  const turn = { turnId, sessionKey: 'probes', messages: [{ role: 'user', content: `remember ${word}` }] };
  await jetstream(nc).publish(Subjects.turn(TENANT, AGENT), JSON.stringify(turn), { msgID: turnId });
  for (;;) {
    // By the (conversation, turn) key: a scan of the tenant for the turn id, every 2 ms, took a core.
    const r = await admin.query(
      `SELECT 1 FROM conversations c JOIN messages m ON m.conversation_id = c.id AND m.turn_id = $3
        WHERE c.tenant_id = $1 AND c.agent = $2 AND c.session_key = 'probes'`,
      [TENANT, AGENT, turnId],
    );
    if (r.rowCount) break;
    await sleep(2);
  }
  const stored = performance.now();
  for (;;) {
    const sent = performance.now();
    const answer = await search(nc, word, 1);
    if (answer.hits.some((h) => h.content.includes(word))) {
      const event = heard.get(turnId);
      return {
        ms: Math.max(0, sent - stored),
        by: answer.answeredBy,
        eventMs: event === undefined ? null : event - stored,
      };
    }
    if (performance.now() - stored > 30_000)
      throw new Error(`probe ${word} not found 30 s after it was stored`);
    await sleep(2);
  }
}

async function main(flags: Flags): Promise<void> {
  const nats = await startNatsServer();
  cleanups.add(() => nats.stop());
  const db = await createMigratedDatabase('freshness');
  cleanups.add(() => db.drop());
  const admin = new Client({ connectionString: db.adminUrl, application_name: 'engram-bench-freshness' });
  await admin.connect();
  cleanups.add(() => admin.end());
  const machine = await describeMachine(admin);
  const env = { NATS_URL: nats.url, DATABASE_URL: db.appUrl, LOG_LEVEL: flags.logLevel };
  for (const name of ['gerty', 'ingest', 'retrieval']) await startReadyService(cleanups, name, env);
  const nc = await connect({ servers: nats.url, name: 'engram-bench-freshness', noAsyncTraces: true });
  cleanups.add(() => nc.close());
  const js = jetstream(nc);

  // One tenant: a preload, then the turns of the paced phase.
  const paced = flags.rate * flags.seconds;
  const corpus = generateTurnCorpus({
    ...DEFAULT_CORPUS,
    turns: Math.ceil((flags.preload + paced * 1.2) / 2.5),
    tenants: 1,
    tenantNames: [TENANT],
  });
  let cut = 0;
  for (let m = 0; cut < corpus.turns.length && m < flags.preload; cut++) m += corpus.turns[cut]!.messageCount;
  const preload = corpus.turns.slice(0, cut);
  const preloaded = preload.reduce((n, t) => n + t.messageCount, 0);
  progress(`preloading ${preloaded} messages`);
  await publishTurns(js, preload, 256);
  await waitFor(
    'the preload stored',
    async () => Number((await admin.query(`SELECT count(*) AS n FROM messages`)).rows[0].n) >= preloaded,
    600_000,
    200,
  );
  const queries = preload
    .flatMap(
      (t) =>
        (JSON.parse(new TextDecoder().decode(t.payload)) as { messages: Array<{ content: string }> })
          .messages,
    )
    .map((m) => m.content.split(/\s+/).filter((w) => /^[a-z]{4,}$/i.test(w)))
    .filter((words) => words.length >= 3)
    .map((words) => words.slice(0, 3).join(' '));
  await waitFor(
    'the index to answer',
    async () => (await search(nc, queries[0]!)).answeredBy === 'index',
    120_000,
    50,
  );

  const searchLoad = async (count: number) => {
    const run = await runClosedLoop(queries.slice(0, count), flags.clients, (q) => search(nc, q));
    return summarizeLatencies(run.outcomes.filter((o) => !o.error).map((o) => o.latencyMs));
  };
  progress(`searching without ingest, ${flags.clients} clients`);
  const searchIdle = await searchLoad(Math.min(queries.length, 1500));

  progress(`ingesting ${flags.rate} messages/s for ${flags.seconds} s while searching and probing`);
  let ingesting = true;
  const publishing = publishPaced(
    js,
    [{ name: 'ingest', turns: corpus.turns.slice(cut), seconds: flags.seconds }],
    {
      messagesPerSecond: flags.rate,
      tickMs: 10,
      window: 256,
    },
  ).finally(() => (ingesting = false));
  const underIngest: number[] = [];
  const searching = (async () => {
    let i = 0;
    await Promise.all(
      Array.from({ length: flags.clients }, async () => {
        while (ingesting) {
          const t = performance.now();
          await search(nc, queries[i++ % queries.length]!);
          underIngest.push(performance.now() - t);
        }
      }),
    );
  })();
  // When each probe's message.stored event crosses the bus (a plain subscriber of the stream's subject).
  const heard = new Map<string, number>();
  const events = nc.subscribe(Subjects.messageStored(TENANT), {
    callback: (_error, msg) => {
      const turnId = decodeMessage(MessageStoredSchema, msg.data, { strict: false }).turnId;
      if (turnId.startsWith('probe-')) heard.set(turnId, performance.now());
    },
  });
  const probes: Array<{ ms: number; by: string; eventMs: number | null }> = [];
  while (ingesting) probes.push(await probe(nc, admin, probes.length, heard));
  events.unsubscribe();
  const published = await publishing;
  await searching;
  const phase = published.phases[0]!;
  const result: FreshnessResult = {
    benchmark: 'freshness',
    finishedAt: new Date().toISOString(),
    machine,
    settings: flags,
    preloadedMessages: preloaded,
    messagesPerSecond: Math.round(phase.messagesPerSecond),
    freshness: summarizeLatencies(probes.map((p) => p.ms)),
    storedToEvent: summarizeLatencies(probes.flatMap((p) => (p.eventMs === null ? [] : [p.eventMs]))),
    probesNotFromIndex: probes.filter((p) => p.by !== 'index').length,
    searchIdle,
    searchUnderIngest: summarizeLatencies(underIngest),
  };
  const out = resolve(REPO_ROOT, flags.out);
  writeResult(out, result);
  const f = result.freshness;
  console.log(
    [
      `ingest       ${result.messagesPerSecond} messages/s for ${flags.seconds} s (after ${preloaded} preloaded)`,
      `freshness    ${f.count} probes, stored → first search that finds it: p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms, max ${f.maxMs.toFixed(1)} ms; ${result.probesNotFromIndex} not from the index`,
      `  of it      stored → its message.stored event on the bus: p50 ${result.storedToEvent.p50Ms.toFixed(1)} ms, p99 ${result.storedToEvent.p99Ms.toFixed(1)} ms (${result.storedToEvent.count} heard)`,
      `search p95   ${result.searchIdle.p95Ms.toFixed(1)} ms without ingest, ${result.searchUnderIngest.p95Ms.toFixed(1)} ms under it (${flags.clients} clients)`,
      `target       p99 ≤ 100 ms: ${f.p99Ms <= 100 ? 'met' : 'MISSED'}`,
      `\nwritten to ${out}`,
    ].join('\n'),
  );
  if (flags.json)
    console.log(
      JSON.stringify({
        messagesPerSecond: result.messagesPerSecond,
        probes: f.count,
        freshP50Ms: Math.round(f.p50Ms * 10) / 10,
        freshP99Ms: Math.round(f.p99Ms * 10) / 10,
        probesNotFromIndex: result.probesNotFromIndex,
        searchP95MsIdle: Math.round(result.searchIdle.p95Ms * 10) / 10,
        searchP95MsIngest: Math.round(result.searchUnderIngest.p95Ms * 10) / 10,
      }),
    );
}

const program = new Command('bench:freshness')
  .description('stored → searchable under steady ingest, and what applying events costs other searches')
  .option('--rate <n>', 'messages/s published during the measurement', integer(1), 1000)
  .option('--seconds <n>', 'how long the measurement ingests', integer(1), 30)
  .option('--preload <n>', 'messages stored before it', integer(0), 20_000)
  .option('--clients <n>', 'concurrent search clients', integer(1), 4)
  .option('--log-level <level>', 'LOG_LEVEL of the services', 'warn')
  .option(
    '--json',
    'print {"messagesPerSecond","probes","freshP50Ms","freshP99Ms","probesNotFromIndex","searchP95MsIdle","searchP95MsIngest"} as the last line of stdout',
    false,
  )
  .option(
    '--out <file>',
    'where to write the full result (relative to the repository)',
    'bench-results/freshness.json',
  );

runBench<Flags>(program, (flags) => main(flags).finally(() => cleanups.run()));
