#!/usr/bin/env node
/**
 * `npm run bench:api -- --data <locomo.json> [--json]`: what the api edge adds to a search. The
 * same memory_search requests (the LoCoMo questions, each within its conversation, topK 10, facts)
 * are made three ways with 8 clients: over NATS (the native path), over HTTP (`POST /v1/search`
 * with an API key) and over the mem0-compatible route (`POST /mem0/v3/memories/search/`, which
 * makes that same request), and each path's p95 is compared with NATS's (target: at most 3 ms
 * more). The facts searched are the conversations' turns, added first through mem0's add
 * (`infer: false`), whose latency is measured too. Services run as their own processes on a
 * private nats-server and scratch database: gerty (built-in model), ingest, embedder, retrieval
 * and api.
 */
import { resolve } from 'node:path';
import { Command } from 'commander';
import { Client } from 'pg';
import { Pool } from 'undici';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Rpcs } from '@engram/contracts';
import { callRpc } from '@engram/messaging';
import { loadLocomo, LocomoFileError, turnContent } from '@engram/memory-core';
import { ApiKeyStore, createDataSource } from '@engram/store';
import { createMigratedDatabase, startNatsServer, waitFor, type ServiceProcess } from '@engram/testing';
import { closedLoop } from './api/closed-loop';
import { summarizeLatencies, type LatencySummary } from './measure/latency-stats';
import { writeResult } from './report/bench-report';
import { describeMachine } from './report/machine';
import {
  Cleanups,
  datasetFile,
  dumpServiceOutput,
  integer,
  progressFor,
  runBench,
  startReadyService,
} from './run/lifecycle';

const REPO_ROOT = resolve(__dirname, '../../..');
const SERVICES = ['gerty', 'ingest', 'embedder', 'retrieval', 'api'] as const;
const TENANT = 'locomo';
const TOP_K = 10;
/** HTTP and mem0 may add at most this much to NATS's p95. */
const OVERHEAD_TARGET_MS = 3;

interface Flags {
  data: string;
  clients: number;
  rounds: number;
  warmup: number;
  logLevel: string;
  json: boolean;
  out: string;
}

const progress = progressFor('bench:api');
const cleanups = new Cleanups(progress).installSignalHandlers();

/** Fails with the status and body when an HTTP answer is not a 200. */
async function ok(response: Awaited<ReturnType<Pool['request']>>, what: string): Promise<string> {
  const text = await response.body.text();
  if (response.statusCode !== 200)
    throw new Error(`${what} answered ${response.statusCode}: ${text.slice(0, 300)}`);
  return text;
}

async function main(flags: Flags): Promise<void> {
  const { file, sha256 } = datasetFile(flags.data);
  const conversations = await loadLocomo(file);
  const turns = conversations.flatMap((c) =>
    c.sessions.flatMap((s) => s.turns.map((t) => ({ user: c.sampleId, run: s.key, text: turnContent(t) }))),
  );
  const questions = conversations.flatMap((c) =>
    c.questions.map((q) => ({ agent: c.sampleId, query: q.question })),
  );
  progress(
    `${file}: ${conversations.length} conversations, ${turns.length} turns, ${questions.length} questions`,
  );

  const services: ServiceProcess[] = [];
  let nc: NatsConnection | undefined;
  try {
    const nats = await startNatsServer();
    cleanups.add(() => nats.stop());
    const db = await createMigratedDatabase('bench-api');
    cleanups.add(() => db.drop());
    const admin = new Client({ connectionString: db.adminUrl, application_name: 'engram-bench-api' });
    await admin.connect();
    cleanups.add(() => admin.end());
    const machine = await describeMachine(admin);

    const env = {
      NATS_URL: nats.url,
      DATABASE_URL: db.appUrl,
      LOG_LEVEL: flags.logLevel,
      // The bench measures latency, not the limiter.
      API_RATE_LIMIT_PER_MINUTE: '0',
    };
    for (const name of SERVICES) services.push(await startReadyService(cleanups, name, env));
    const api = services.find((s) => s.name === 'api')!;
    progress(`${services.map((s) => `${s.name} (pid ${s.pid})`).join(', ')} ready`);

    const dataSource = createDataSource(db.appUrl, { poolSize: 1, applicationName: 'engram-bench-api' });
    await dataSource.initialize();
    cleanups.add(() => dataSource.destroy());
    const key = (await new ApiKeyStore(dataSource).create(TENANT, 'bench:api')).key;
    nc = await connect({ servers: nats.url, name: 'engram-bench-api' });
    const connection = nc;
    cleanups.add(() => connection.close());
    const http = new Pool(`http://127.0.0.1:${api.httpPort}`, { connections: flags.clients * 2 });
    cleanups.add(() => http.close());
    /** POSTs JSON to the api with the key under `scheme`; anything but a 200 fails the run. */
    const post = async (path: string, scheme: 'Bearer' | 'Token', body: unknown, what: string) =>
      ok(
        await http.request({
          method: 'POST',
          path,
          headers: { authorization: `${scheme} ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
        what,
      );

    // 1. Every turn as a mem0 memory of its conversation's user (infer off: stored at once).
    progress(`adding ${turns.length} memories through mem0's add (infer off), ${flags.clients} at once`);
    const addLatencies = await closedLoop(turns.length, flags.clients, async (i) => {
      const turn = turns[i]!;
      const body = {
        messages: [{ role: 'user', content: turn.text }],
        user_id: turn.user,
        run_id: turn.run,
        infer: false,
      };
      await post('/mem0/v3/memories/add/', 'Token', body, 'add');
    });
    const facts = Number(
      (await admin.query(`SELECT count(*) AS n FROM facts WHERE tenant_id = $1`, [TENANT])).rows[0].n,
    );
    progress(`${facts} facts; waiting for every fact's vector`);
    await waitFor(
      'every fact embedded',
      async () =>
        Number(
          (
            await admin.query(
              `SELECT count(*) AS n FROM facts f WHERE f.tenant_id = $1 AND NOT EXISTS
                 (SELECT 1 FROM embeddings e WHERE e.tenant_id = f.tenant_id AND e.item_kind = 'fact' AND e.item_id = f.id)`,
              [TENANT],
            )
          ).rows[0].n,
        ) === 0,
      600_000,
      1000,
    );

    // 2. The same searches three ways, in rounds that alternate the order.
    const request = (q: { agent: string; query: string }) => ({
      query: q.query,
      topK: TOP_K,
      filters: { agent: q.agent, kinds: ['fact'] },
      expand: false,
    });
    const paths: Record<'nats' | 'http' | 'mem0', (i: number) => Promise<void>> = {
      nats: async (i) => {
        await callRpc(connection, Rpcs.search, request(questions[i % questions.length]!), {
          tenantId: TENANT,
        });
      },
      http: async (i) => {
        await post('/v1/search', 'Bearer', request(questions[i % questions.length]!), 'search');
      },
      mem0: async (i) => {
        const q = questions[i % questions.length]!;
        const body = { query: q.query, filters: { user_id: q.agent }, top_k: TOP_K };
        await post('/mem0/v3/memories/search/', 'Token', body, 'mem0 search');
      },
    };
    const latencies: Record<keyof typeof paths, number[]> = { nats: [], http: [], mem0: [] };
    for (const send of Object.values(paths)) await closedLoop(flags.warmup, flags.clients, send);
    for (let round = 0; round < flags.rounds; round++) {
      const order = (Object.keys(paths) as Array<keyof typeof paths>)[
        round % 2 === 0 ? 'slice' : 'reverse'
      ]();
      for (const name of order) {
        latencies[name].push(...(await closedLoop(questions.length, flags.clients, paths[name])));
        progress(
          `round ${round + 1}/${flags.rounds}: ${name} p95 ${summarizeLatencies(latencies[name]).p95Ms} ms so far`,
        );
      }
    }

    const summary: Record<string, LatencySummary> = {
      natsSearch: summarizeLatencies(latencies.nats),
      search: summarizeLatencies(latencies.http),
      mem0Search: summarizeLatencies(latencies.mem0),
      add: summarizeLatencies(addLatencies),
    };
    const headline = {
      natsSearchP95Ms: summary.natsSearch!.p95Ms,
      searchP95Ms: summary.search!.p95Ms,
      mem0SearchP95Ms: summary.mem0Search!.p95Ms,
      addP95Ms: summary.add!.p95Ms,
    };
    const met = {
      http: headline.searchP95Ms - headline.natsSearchP95Ms <= OVERHEAD_TARGET_MS,
      mem0: headline.mem0SearchP95Ms - headline.natsSearchP95Ms <= OVERHEAD_TARGET_MS,
    };
    const result = {
      benchmark: 'api',
      finishedAt: new Date().toISOString(),
      machine,
      dataset: {
        file,
        sha256,
        conversations: conversations.length,
        turns: turns.length,
        questions: questions.length,
      },
      settings: {
        clients: flags.clients,
        rounds: flags.rounds,
        warmup: flags.warmup,
        topK: TOP_K,
        services: [...SERVICES],
        facts,
      },
      latency: summary,
      ...headline,
      targets: { overheadMs: OVERHEAD_TARGET_MS, met },
    };
    const out = resolve(REPO_ROOT, flags.out);
    writeResult(out, result);
    for (const [name, s] of Object.entries(summary))
      console.log(
        `${name.padEnd(11)} p50 ${s.p50Ms} ms  p95 ${s.p95Ms} ms  p99 ${s.p99Ms} ms  (${s.count} requests)`,
      );
    console.log(
      `HTTP adds ${(headline.searchP95Ms - headline.natsSearchP95Ms).toFixed(1)} ms at p95, mem0 ${(headline.mem0SearchP95Ms - headline.natsSearchP95Ms).toFixed(1)} ms (target ≤ ${OVERHEAD_TARGET_MS}): ${met.http && met.mem0 ? 'met' : 'NOT met'}`,
    );
    console.log(`\nwritten to ${out}`);
    if (flags.json) console.log(JSON.stringify(headline));
  } catch (error) {
    dumpServiceOutput(services);
    throw error;
  } finally {
    await cleanups.run();
  }
}

const program = new Command('bench:api')
  .description('memory_search p95 over NATS, HTTP and the mem0-compatible route, 8 clients, on LoCoMo.')
  .requiredOption('--data <file>', 'the LoCoMo JSON (e.g. ../shared/datasets/locomo/locomo-dev.json)')
  .option('--clients <n>', 'requests in flight at once, per path', integer(1), 8)
  .option(
    '--rounds <n>',
    'passes over every question, per path (alternating the order of the paths)',
    integer(1),
    2,
  )
  .option('--warmup <n>', 'requests per path before measuring', integer(0), 200)
  .option('--log-level <level>', 'LOG_LEVEL of the services', 'warn')
  .option(
    '--json',
    'print {"natsSearchP95Ms","searchP95Ms","mem0SearchP95Ms","addP95Ms"} as the last line',
    false,
  )
  .option(
    '--out <file>',
    'where to write the full result (relative to the repository)',
    'bench-results/api.json',
  );

runBench(program, main, [LocomoFileError]);
