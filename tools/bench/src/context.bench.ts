#!/usr/bin/env node
/**
 * `npm run bench:context`: mem.rpc.context.build latency over NATS at 1,000,000 messages,
 * retrieval included, 8 concurrent clients and one at a time, on bench:search's corpus. See BENCHMARKS.md.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { Client } from 'pg';
import { connect } from '@nats-io/transport-node';
import { loadConfig } from '@engram/config';
import { factOpen } from '@engram/store';
import { contentTerms, LocalEmbedder } from '@engram/local-model';
import { startNatsServer, type ServiceProcess } from '@engram/testing';
import { agentWorkspace } from './context/agent-workspace';
import { agentsAsked, generateContextRequests } from './context/context-requests';
import {
  contextHeadline,
  contextTargets,
  renderContextTable,
  type ContextBenchResult,
} from './context/context-report';
import { measureBuilds, measureRetrieval, seedWorkspaces } from './context/measure-context';
import { warmIndexes } from './search/measure-search';
import { writeResult } from './report/bench-report';
import { describeMachine } from './report/machine';
import {
  Cleanups,
  dumpServiceOutput,
  integer,
  progressFor,
  runBench,
  startReadyService,
  stopService,
} from './run/lifecycle';
import { ensureCorpusDatabase } from './search/corpus-database';
import { CorpusGenerator } from './search/corpus-generator';
import { loadCorpus } from './search/corpus-load';
import {
  CORPUS_LEXICON,
  CORPUS_VERSION,
  corpusSizeLabel,
  FULL_CORPUS,
  planCorpus,
  scaleCorpus,
} from './search/corpus-shape';
import { DEFAULT_QUERY_MIX } from './search/query-generator';
import { lexiconOf, ZipfText } from './search/zipf-text';

const REPO_ROOT = resolve(__dirname, '../../..');
const SERVICES = ['gerty', 'retrieval', 'context-builder'] as const;

interface Flags {
  small: boolean;
  queries: number;
  warmup: number;
  searchQueries: number;
  clients: number;
  seed: number;
  logLevel: string;
  json: boolean;
  out: string;
}

const progress = progressFor('bench:context');
const cleanups = new Cleanups(progress).installSignalHandlers();

async function main(flags: Flags): Promise<void> {
  const admin = new Client({
    connectionString: loadConfig(['ENGRAM_PG_ADMIN_URL']).ENGRAM_PG_ADMIN_URL,
    application_name: 'engram-bench-context',
  });
  await admin.connect();
  const machine = await describeMachine(admin).finally(() => admin.end());

  const embedder = LocalEmbedder.load();
  const text = new ZipfText(lexiconOf(embedder, CORPUS_LEXICON.words), CORPUS_LEXICON.zipfExponent);
  const spec = flags.small ? scaleCorpus(FULL_CORPUS, 0.1) : FULL_CORPUS;
  const label = corpusSizeLabel(spec.messages);
  const tenants = planCorpus(spec);
  const db = await ensureCorpusDatabase(label, spec, {
    fresh: false,
    progress: (t) => progress(`${label}: ${t}`),
    load: (target) =>
      loadCorpus(target.adminUrl, tenants, new CorpusGenerator(text), embedder, (t) =>
        progress(`${label}: ${t}`),
      ),
  });
  const rows = db.marker.load.rows;
  progress(
    `${label}: corpus ${db.name}${db.reused ? ' (loaded by an earlier run)' : ''}: ${JSON.stringify(rows)}`,
  );

  // The corpus's last day: the daily notes are seeded for it and every prompt is built for it.
  const now = new Date(spec.toMs);
  const day = now.toISOString().slice(0, 10);
  const isContentWord = (word: string) => word.length >= 3 && contentTerms(word).length > 0;
  const requests = generateContextRequests(
    flags.warmup + flags.queries,
    {
      word: (random) => text.word(random),
      isContentWord,
      tenants,
      period: { fromMs: spec.fromMs, toMs: spec.toMs },
    },
    now,
    flags.seed,
  );
  const warmup = requests.slice(0, flags.warmup);
  const measured = requests.slice(flags.warmup);
  const tenantOf = new Map(tenants.map((t) => [t.id, t]));
  const workspaces = agentsAsked(requests).map(({ tenantId, agent }) =>
    agentWorkspace(
      tenantOf.get(tenantId)!,
      agent,
      day,
      { word: (random) => text.word(random), isContentWord },
      flags.seed,
    ),
  );

  const stickyFacts = await countStickyFacts(db.adminUrl, workspaces);
  const memoryHits = loadConfig(['CONTEXT_MEMORY_HITS']).CONTEXT_MEMORY_HITS;
  const nats = await startNatsServer();
  cleanups.add(() => nats.stop());
  const env: Record<string, Record<string, string>> = { gerty: {}, retrieval: {}, 'context-builder': {} };
  const base = { NATS_URL: nats.url, DATABASE_URL: db.appUrl, LOG_LEVEL: flags.logLevel };
  const services: ServiceProcess[] = [];
  for (const name of SERVICES)
    services.push(await startReadyService(cleanups, name, { ...base, ...env[name] }));
  progress(`${label}: ${services.map((s) => `${s.name} (pid ${s.pid})`).join(', ')} ready`);

  const nc = await connect({ servers: nats.url, name: 'engram-bench-context', noAsyncTraces: true });
  cleanups.add(() => nc.close());
  const seeded = await seedWorkspaces(nc, workspaces, flags.clients);
  progress(
    `${label}: seeded ${workspaces.length} agents (${seeded.documents} documents, ${seeded.skills} skills) in ${seeded.seconds.toFixed(1)} s; they have ${stickyFacts} sticky facts`,
  );
  if (stickyFacts === 0)
    throw new Error(
      'the agents asked for have no sticky facts in the corpus: the prompts would lack that layer',
    );

  // Every tenant's search index loaded first: builds are timed against the indexes, not their loads.
  const indexes = await warmIndexes(
    nc,
    tenants.map((t) => ({ tenantId: t.id, messages: t.messages })),
    { tenantId: '', text: 'what did we decide', filters: {}, topK: memoryHits },
  );
  progress(
    `${label}: search indexes loaded: ${indexes.oneTenant.messages} messages in ${indexes.oneTenant.ms} ms, then ${indexes.all.tenants} tenants in ${indexes.all.ms} ms`,
  );
  progress(
    `${label}: ${flags.warmup} + ${flags.queries} context builds, ${flags.clients} clients, then the ${flags.queries} one at a time`,
  );
  const builds = await measureBuilds(nc, warmup, measured, flags.clients, (t) => progress(`${label}: ${t}`));
  let retrieval: ContextBenchResult['retrieval'] = null;
  if (flags.searchQueries > 0) {
    retrieval = await measureRetrieval(nc, measured.slice(0, flags.searchQueries), flags.clients, memoryHits);
    progress(
      `${label}: retrieval alone p95 ${retrieval.concurrent.latency.p95Ms} ms (${flags.clients} clients), ${retrieval.serial.latency.p95Ms} ms (serial)`,
    );
  }
  const loadAverageAtEnd = Math.round(loadavg()[0]! * 100) / 100;
  if (
    builds.concurrent.latency.count < builds.concurrent.calls ||
    builds.serial.latency.count < builds.serial.calls
  ) {
    dumpServiceOutput(
      services.filter((s) => s.name === 'context-builder'),
      3000,
    );
  }
  await nc.close();
  for (const service of [...services].reverse()) await stopService(service);

  const headline = contextHeadline({ builds });
  const result: ContextBenchResult = {
    benchmark: 'context',
    finishedAt: new Date().toISOString(),
    machine,
    loadAverageAtEnd,
    settings: {
      clients: flags.clients,
      queries: flags.queries,
      warmup: flags.warmup,
      searchQueries: Math.min(flags.searchQueries, flags.queries),
      seed: flags.seed,
      queryMix: DEFAULT_QUERY_MIX,
      lexicon: CORPUS_LEXICON,
      corpusVersion: CORPUS_VERSION,
      now: now.toISOString(),
      memoryHits,
      env,
      logLevel: flags.logLevel,
    },
    corpus: {
      label,
      database: db.name,
      reused: db.reused,
      loadedAt: db.marker.loadedAt,
      messages: spec.messages,
      tenants: tenants.length,
      conversations: rows['conversations'] ?? 0,
      facts: rows['facts'] ?? 0,
      vectors: rows['embeddings'] ?? 0,
    },
    seeded: {
      agents: workspaces.length,
      documents: seeded.documents,
      skills: seeded.skills,
      stickyFacts,
      seconds: seeded.seconds,
    },
    indexes,
    builds,
    retrieval,
    targets: contextTargets(headline),
  };
  const out = resolve(REPO_ROOT, flags.out);
  writeResult(out, result);
  console.log(renderContextTable(result));
  console.log(`\nwritten to ${out}`);
  if (flags.json) console.log(JSON.stringify({ p50Ms: headline.p50Ms, p95Ms: headline.p95Ms }));
  const failed = [builds.concurrent, builds.serial].filter((r) => r.latency.count < r.calls);
  if (failed.length)
    throw new Error(`context builds failed: ${failed.map((r) => JSON.stringify(r.errors)).join(', ')}`);
}

/** The sticky facts (open ones) of the agents asked for, as the corpus holds them. */
async function countStickyFacts(
  adminUrl: string,
  agents: ReadonlyArray<{ tenantId: string; agent: string }>,
): Promise<number> {
  const client = new Client({ connectionString: adminUrl, application_name: 'engram-bench-context' });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM facts f JOIN unnest($1::text[], $2::text[]) AS a(tenant_id, agent) USING (tenant_id, agent)
        WHERE f.lifetime = 'sticky' AND ${factOpen('f')}`,
      [agents.map((a) => a.tenantId), agents.map((a) => a.agent)],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

const program = new Command('bench:context')
  .description(
    'mem.rpc.context.build latency at 1 M messages over NATS, retrieval included (8 concurrent clients, and serial).',
  )
  .option('--small', "run on bench:search's 100 k corpus instead (a quick run)", false)
  .option(
    '--queries <n>',
    'measured context builds (at --clients, then again one at a time)',
    integer(1),
    2000,
  )
  .option('--warmup <n>', 'builds sent first, not measured', integer(0), 200)
  .option(
    '--search-queries <n>',
    'mem.rpc.search calls of the same messages, to show retrieval alone (0: skip)',
    integer(0),
    400,
  )
  .option('--clients <n>', 'concurrent clients', integer(1), 8)
  .option('--seed <n>', 'request and workspace seed', integer(0), 42)
  .option('--log-level <level>', 'LOG_LEVEL of the services', 'info')
  .option('--json', 'print {"p50Ms","p95Ms"} (8 clients) as the last line of stdout', false)
  .option(
    '--out <file>',
    'where to write the full result (relative to the repository)',
    'bench-results/context.json',
  );

runBench<Flags>(program, (flags) => main(flags).finally(() => cleanups.run()));
