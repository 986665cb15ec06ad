#!/usr/bin/env node
/**
 * `npm run bench:search`: memory_search latency at 1,000,000 messages (and at 100,000), 8
 * concurrent clients, against the bare SQL of the same plan (the floor). See BENCHMARKS.md.
 */
import { resolve } from 'node:path';
import { Command } from 'commander';
import { Client, Pool } from 'pg';
import { connect } from '@nats-io/transport-node';
import { loadConfig } from '@engram/config';
import { contentTerms, LocalEmbedder } from '@engram/local-model';
import { startNatsServer, type NatsServerHandle, type ServiceProcess } from '@engram/testing';
import { scrapeMetricSums } from './measure/prometheus-text';
import { backendsOf, parentOf, processesMatching, type ProcessGroup } from './measure/process-cpu';
import { ServiceProfile } from './profile/service-profile';
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
import { CorpusGenerator } from './search/corpus-generator';
import { ensureCorpusDatabase } from './search/corpus-database';
import { loadCorpus } from './search/corpus-load';
import {
  CORPUS_LEXICON,
  CORPUS_VERSION,
  corpusSizeLabel,
  bigTenantAgent,
  FULL_CORPUS,
  planBigTenant,
  planCorpus,
  scaleCorpus,
  type CorpusSpec,
} from './search/corpus-shape';
import {
  explainFloor,
  indexMemory,
  measureFloor,
  measureRpc,
  measureShell,
  SHELL_TENANT,
  warmIndexes,
  type VectorQuery,
} from './search/measure-search';
import {
  bigTenantHeadline,
  bigTenantTargets,
  measureBigTenant,
  renderBigTenant,
} from './search/measure-big-tenant';
import { measureEcho } from './search/measure-echo';
import { DEFAULT_QUERY_MIX, generateQueries } from './search/query-generator';
import {
  renderSearchTable,
  searchHeadline,
  searchTargets,
  type ScaleResult,
  type SearchBenchResult,
} from './search/search-report';
import { lexiconOf, ZipfText } from './search/zipf-text';

const REPO_ROOT = resolve(__dirname, '../../..');

interface Flags {
  messages: number;
  agentsPerTenant: number;
  bigTenantMessages: number;
  small: boolean;
  rpc: boolean;
  fresh: boolean;
  queries: number;
  warmup: number;
  clients: number;
  seed: number;
  explain: number;
  logLevel: string;
  cpuProf: boolean;
  json: boolean;
  out: string;
}

const progress = progressFor('bench:search');
const cleanups = new Cleanups(progress).installSignalHandlers();

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function measureScale(
  spec: CorpusSpec,
  flags: Flags,
  context: {
    embedder: LocalEmbedder;
    text: ZipfText;
    nats: NatsServerHandle;
    env: Record<string, Record<string, string>>;
  },
): Promise<ScaleResult> {
  const label = corpusSizeLabel(spec.messages);
  const tenants = planCorpus(spec);
  const db = await ensureCorpusDatabase(label, spec, {
    fresh: flags.fresh,
    progress: (t) => progress(`${label}: ${t}`),
    load: (target) =>
      loadCorpus(target.adminUrl, tenants, new CorpusGenerator(context.text), context.embedder, (t) =>
        progress(`${label}: ${t}`),
      ),
  });
  const load = db.marker.load;
  progress(
    `${label}: loaded in ${load.seconds.total.toFixed(0)} s${db.reused ? ' (by an earlier run)' : ''}: ${JSON.stringify(load.rows)}`,
  );

  // The same queries at every size: the tenants and agents do not depend on it.
  const queries = generateQueries(
    flags.warmup + flags.queries,
    {
      word: (random) => context.text.word(random),
      isContentWord: (word) => word.length >= 3 && contentTerms(word).length > 0,
      tenants,
      period: { fromMs: spec.fromMs, toMs: spec.toMs },
    },
    flags.seed,
  );
  const vectors = context.embedder.embed(queries.map((q) => q.text));
  const withVectors: VectorQuery[] = queries.map((q, i) => ({ ...q, vector: Array.from(vectors[i]!) }));
  const warmup = withVectors.slice(0, flags.warmup);
  const measured = withVectors.slice(flags.warmup);

  let rpc: ScaleResult['rpc'] = null;
  let shell: ScaleResult['shell'] = null;
  let echo: ScaleResult['echo'] = null;
  let echoRead: ScaleResult['echoRead'] = null;
  let index: ScaleResult['index'] = null;
  if (flags.rpc) {
    const base = { NATS_URL: context.nats.url, DATABASE_URL: db.appUrl, LOG_LEVEL: flags.logLevel };
    const services: ServiceProcess[] = [];
    const profiler = flags.cpuProf ? new ServiceProfile(`retrieval-search-${label}`) : undefined;
    for (const name of ['gerty', 'retrieval'])
      services.push(
        await startReadyService(cleanups, name, {
          ...base,
          ...context.env[name],
          ...(name === 'retrieval' && profiler?.env),
        }),
      );
    progress(
      `${label}: gerty (pid ${services[0]!.pid}) and retrieval (pid ${services[1]!.pid}) ready; ${flags.warmup} + ${flags.queries} queries over RPC, ${flags.clients} clients`,
    );
    const nc = await connect({ servers: context.nats.url, name: 'engram-bench-search', noAsyncTraces: true });
    const groups = await cpuGroups(db.appUrl, services, context.nats.port);
    try {
      const retrieval = services[1]!;
      const warmed = await warmIndexes(
        nc,
        tenants.map((t) => ({ tenantId: t.id, messages: t.messages })),
        measured[0]!,
      );
      index = { ...warmed, ...(await indexMemory(retrieval.pid, retrieval.httpPort)) };
      progress(
        `${label}: indexes loaded: ${warmed.oneTenant.messages} messages in ${warmed.oneTenant.ms} ms, then ${warmed.all.tenants} tenants in ${warmed.all.ms} ms; ${index.indexMB} MB held, retrieval resident ${index.rssMB} MB`,
      );
      rpc = await measureRpc(nc, warmup, measured, flags.clients, groups, () => profiler?.begin(retrieval));
      if (profiler) rpc = { ...rpc, retrievalProfile: await profiler.end(retrieval) };
      progress(
        `${label}: RPC p95 ${rpc.latency.p95Ms} ms (${rpc.latency.count}/${rpc.calls} answered${Object.keys(rpc.errors).length ? `; errors ${JSON.stringify(rpc.errors)}` : ''})`,
      );
      if (rpc.latency.count < rpc.calls)
        dumpServiceOutput(
          services.filter((s) => s.name === 'retrieval'),
          3000,
        );
      shell = await measureShell(nc, warmup, measured, flags.clients, groups, () =>
        profiler?.begin(retrieval),
      );
      if (profiler) shell = { ...shell, retrievalProfile: await profiler.end(retrieval) };
      progress(
        `${label}: shell (the same requests for ${SHELL_TENANT}) p95 ${shell.latency.p95Ms} ms (${shell.latency.count}/${shell.calls} NOT_FOUND)`,
      );
      echo = await measureEcho(context.nats.url, nc, warmup, measured, flags.clients, groups);
      progress(`${label}: echo (a bare NATS endpoint) p95 ${echo.latency.p95Ms} ms`);
      echoRead = await measureEcho(context.nats.url, nc, warmup, measured, flags.clients, groups, db.appUrl);
      progress(
        `${label}: echo + one read (the endpoint asks Postgres once) p95 ${echoRead.latency.p95Ms} ms`,
      );
    } finally {
      await nc.close();
      for (const service of services.reverse()) await stopService(service);
    }
  }

  progress(
    `${label}: ${flags.warmup} + ${flags.queries} queries as bare SQL (the floor), ${flags.clients} connections`,
  );
  const pool = new Pool({
    connectionString: db.appUrl,
    max: flags.clients,
    application_name: 'engram-bench-search-floor',
  });
  try {
    const floor = await measureFloor(pool, warmup, measured, flags.clients);
    progress(
      `${label}: floor p95 ${floor.run.latency.p95Ms} ms; EXPLAIN ANALYZE of ${flags.explain} slow queries and one of each kind`,
    );
    const explained = await explainFloor(pool, measured, floor.latencies, flags.explain);
    const sizes = tenants.map((t) => t.messages);
    return {
      label,
      database: db.name,
      reused: db.reused,
      loadedAt: db.marker.loadedAt,
      corpus: {
        messages: spec.messages,
        tenants: tenants.length,
        tenantMessages: { min: Math.min(...sizes), median: median(sizes), max: Math.max(...sizes) },
        conversations: load.rows['conversations'] ?? 0,
        agents: tenants.reduce((n, t) => n + t.agents.length, 0),
        summaries: load.rows['summaries'] ?? 0,
        summarySources: load.rows['summary_sources'] ?? 0,
        facts: load.rows['facts'] ?? 0,
        vectors: load.rows['embeddings'] ?? 0,
      },
      load,
      index,
      rpc,
      shell,
      echo,
      echoRead,
      floor: floor.run,
      explained,
    };
  } finally {
    await pool.end();
  }
}

/**
 * The big-tenant shape: one tenant of `--agents-per-tenant` agents and one of its first agent
 * alone, in a fresh gerty and retrieval; see measure-big-tenant.ts for what is timed.
 */
async function bigTenantRun(
  flags: Flags,
  context: { embedder: LocalEmbedder; text: ZipfText; nats: NatsServerHandle },
  machine: unknown,
): Promise<void> {
  const spec: CorpusSpec = {
    ...FULL_CORPUS,
    messages: flags.bigTenantMessages,
    agentsPerTenant: flags.agentsPerTenant,
  };
  const label = `${corpusSizeLabel(spec.messages)}_a${flags.agentsPerTenant}`;
  const [big, alone] = planBigTenant(spec);
  const db = await ensureCorpusDatabase(label, spec, {
    fresh: flags.fresh,
    progress: (t) => progress(`${label}: ${t}`),
    load: (target) =>
      loadCorpus(target.adminUrl, [big!, alone!], new CorpusGenerator(context.text), context.embedder, (t) =>
        progress(`${label}: ${t}`),
      ),
  });
  const queries = generateQueries(
    flags.queries,
    {
      word: (random) => context.text.word(random),
      isContentWord: (word) => word.length >= 3 && contentTerms(word).length > 0,
      tenants: [alone!],
      period: { fromMs: spec.fromMs, toMs: spec.toMs },
    },
    flags.seed,
  );
  const base = { NATS_URL: context.nats.url, DATABASE_URL: db.appUrl, LOG_LEVEL: flags.logLevel };
  const services: ServiceProcess[] = [];
  for (const name of ['gerty', 'retrieval']) services.push(await startReadyService(cleanups, name, base));
  const nc = await connect({ servers: context.nats.url, name: 'engram-bench-search', noAsyncTraces: true });
  try {
    progress(
      `${label}: ${big!.messages} messages over ${big!.agents.length} agents; ${queries.length} queries, one at a time`,
    );
    const result = await measureBigTenant(
      nc,
      queries,
      { big: big!.id, alone: alone!.id, agent: bigTenantAgent(0) },
      { agents: big!.agents.length, bigMessages: big!.messages, aloneMessages: alone!.messages },
      async () =>
        (await scrapeMetricSums(services[1]!.httpPort, { tenants: { name: 'engram_search_index_tenants' } }))
          .tenants!,
    );
    const headline = bigTenantHeadline(result);
    const out = resolve(REPO_ROOT, flags.out.replace(/\.json$/, '-big-tenant.json'));
    writeResult(out, {
      benchmark: 'search-big-tenant',
      finishedAt: new Date().toISOString(),
      machine,
      settings: {
        queries: flags.queries,
        seed: flags.seed,
        database: db.name,
        reused: db.reused,
        load: db.marker.load,
      },
      result,
      targets: bigTenantTargets(headline),
    });
    console.log(renderBigTenant(result));
    console.log(`\nwritten to ${out}`);
    if (flags.json) console.log(JSON.stringify(headline));
  } finally {
    await nc.close();
    for (const service of services.reverse()) await stopService(service);
  }
}

/** The processes whose CPU a search run is charged to: each service, the backends serving the bench's database, NATS, this bench. */
async function cpuGroups(
  appUrl: string,
  services: readonly ServiceProcess[],
  natsPort: number,
): Promise<ProcessGroup[]> {
  const client = new Client({ connectionString: appUrl });
  await client.connect();
  const { pid, database } = (
    await client.query<{ pid: number; database: string }>(
      'SELECT pg_backend_pid() AS pid, current_database() AS database',
    )
  ).rows[0]!;
  const backend = Number(pid);
  const postmaster = parentOf(backend) ?? backend; // while the backend lives
  await client.end();
  return [
    ...services.map((s) => ({ name: s.name, pids: () => [s.pid] })),
    // Only this database's backends: other work on the machine's Postgres is not the search's.
    { name: 'postgres', pids: () => backendsOf(postmaster, database) },
    { name: 'nats', pids: () => processesMatching(['nats-server', String(natsPort)]) },
    { name: 'bench', pids: () => [process.pid] },
  ];
}

async function main(flags: Flags): Promise<void> {
  const admin = new Client({
    connectionString: loadConfig(['ENGRAM_PG_ADMIN_URL']).ENGRAM_PG_ADMIN_URL,
    application_name: 'engram-bench-search',
  });
  await admin.connect();
  const machine = await describeMachine(admin).finally(() => admin.end());

  const embedder = LocalEmbedder.load();
  const text = new ZipfText(lexiconOf(embedder, CORPUS_LEXICON.words), CORPUS_LEXICON.zipfExponent);
  const nats = await startNatsServer();
  cleanups.add(() => nats.stop());
  const env: Record<string, Record<string, string>> = { gerty: {}, retrieval: {} };
  if (flags.agentsPerTenant > 0) return bigTenantRun(flags, { embedder, text, nats }, machine);

  const large: CorpusSpec = { ...FULL_CORPUS, messages: flags.messages };
  const specs = flags.small ? [large, scaleCorpus(large, 0.1)] : [large];
  const scales: ScaleResult[] = [];
  for (const spec of specs) scales.push(await measureScale(spec, flags, { embedder, text, nats, env }));

  const headline = searchHeadline({ scales });
  const result: SearchBenchResult = {
    benchmark: 'search',
    finishedAt: new Date().toISOString(),
    machine,
    settings: {
      clients: flags.clients,
      queries: flags.queries,
      warmup: flags.warmup,
      seed: flags.seed,
      queryMix: DEFAULT_QUERY_MIX,
      lexicon: CORPUS_LEXICON,
      corpusVersion: CORPUS_VERSION,
      env,
      logLevel: flags.logLevel,
    },
    scales,
    targets: searchTargets(headline),
  };
  const out = resolve(REPO_ROOT, flags.out);
  writeResult(out, result);
  console.log(renderSearchTable(result));
  console.log(`\nwritten to ${out}`);
  if (flags.json) console.log(JSON.stringify(headline));
  const failed = scales.filter((s) => s.rpc && s.rpc.latency.count < s.rpc.calls);
  if (failed.length)
    throw new Error(
      `memory_search failed at ${failed.map((s) => `${s.label} (${JSON.stringify(s.rpc!.errors)})`).join(', ')}`,
    );
}

const program = new Command('bench:search')
  .description(
    'memory_search latency at 1 M and 100 k messages (8 concurrent clients) against the bare SQL of the same plan.',
  )
  .option(
    '--messages <n>',
    'messages in the large corpus (the small one has a tenth)',
    integer(1000),
    FULL_CORPUS.messages,
  )
  .option('--no-small', 'skip the corpus of a tenth the size')
  .option(
    '--agents-per-tenant <n>',
    'measure the big-tenant shape instead: one tenant of n agents, and one of its first agent alone (scoped search, cold load)',
    integer(0),
    0,
  )
  .option(
    '--big-tenant-messages <n>',
    'messages of the big tenant (with --agents-per-tenant)',
    integer(1000),
    200_000,
  )
  .option('--no-rpc', 'measure the floor only (no services)')
  .option('--fresh', 'generate and load the corpora again even if a cached database exists', false)
  .option('--queries <n>', 'measured queries per corpus (RPC and floor each)', integer(1), 2000)
  .option('--warmup <n>', 'queries sent first, not measured', integer(0), 200)
  .option('--clients <n>', 'concurrent clients', integer(1), 8)
  .option('--seed <n>', 'query seed', integer(0), 42)
  .option('--explain <n>', 'slowest floor queries to EXPLAIN ANALYZE (plus one of each kind)', integer(0), 3)
  .option('--log-level <level>', 'LOG_LEVEL of the services', 'info')
  .option(
    '--cpu-prof',
    'sample the CPU of retrieval during the measured RPC and shell runs (V8 profiler); the summaries go into the result (rpc.retrievalProfile, shell.retrievalProfile)',
    false,
  )
  .option(
    '--json',
    'print {"messages","p50Ms","p95Ms","p99Ms","shellP95Ms","echoP95Ms","echoReadP95Ms","cpuMsPerSearch","searchCpuMs","shellCpuMs","echoCpuMs","echoReadCpuMs","indexMemoryMB","floorP95Ms","p95Ms100k","coldLoad10kMs","coldLoadAllMs"} as the last line of stdout',
    false,
  )
  .option(
    '--out <file>',
    'where to write the full result (relative to the repository)',
    'bench-results/search.json',
  );

runBench<Flags>(program, (flags) => main(flags).finally(() => cleanups.run()));
