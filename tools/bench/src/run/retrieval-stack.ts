import { InvalidArgumentError, type Command } from 'commander';
import { Client } from 'pg';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Consumers, isValidToken, Streams } from '@engram/contracts';
import { createMigratedDatabase, startNatsServer, waitFor, type ServiceProcess } from '@engram/testing';
import type { CorpusTurn } from '../corpus/turn-corpus';
import { TurnDeadLetters } from '../measure/dead-letters';
import { waitForEmbeddedRows } from '../measure/embedded-rows';
import { describeMissingTurns, missingTurns, storedTurnKey } from '../measure/ingest-wait';
import { publishTurns } from '../publish/turn-publisher';
import { ServiceProfile } from '../profile/service-profile';
import { describeMachine, type MachineDescription } from '../report/machine';
import {
  askEveryQuestion,
  SearchUnavailableError,
  type Answer,
  type Question,
  type SearchFigures,
} from './ask-questions';
import { consumerSettings, dumpServiceOutput, integer, startReadyService, type Cleanups } from './lifecycle';

/** Hits asked for per question: enough for recall@50. */
export const RECALL_TOP_K = 50;

/** What a recall bench runs: the built-in model, ingest, the embedder and retrieval, each its own process. */
export const RETRIEVAL_SERVICES = ['gerty', 'ingest', 'embedder', 'retrieval'] as const;

export interface RetrievalStack {
  readonly natsUrl: string;
  readonly databaseName: string;
  readonly admin: Client;
  readonly machine: MachineDescription;
  readonly services: readonly ServiceProcess[];
  readonly retrieval: ServiceProcess;
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
}

export interface StackOptions {
  /** Names the scratch database and the client connections ("locomo" → engram-bench-locomo). */
  readonly name: string;
  readonly logLevel: string;
  readonly keepDatabase: boolean;
  /** Extra environment of the retrieval process (a profiler's, say). */
  readonly retrievalEnv?: Record<string, string>;
}

/**
 * A private nats-server, a migrated scratch database and the retrieval services started and
 * ready, ingest and the embedder consuming; every part undone by `cleanups`.
 */
export async function startRetrievalStack(
  cleanups: Cleanups,
  progress: (line: string) => void,
  options: StackOptions,
): Promise<RetrievalStack> {
  const nats = await startNatsServer();
  cleanups.add(() => nats.stop());
  const db = await createMigratedDatabase(options.name);
  if (options.keepDatabase) progress(`the database ${db.name} is kept (--keep-database): drop it when done`);
  else cleanups.add(() => db.drop());
  progress(`nats-server ${nats.url}; database ${db.name}`);
  const admin = new Client({
    connectionString: db.adminUrl,
    application_name: `engram-bench-${options.name}`,
  });
  await admin.connect();
  cleanups.add(() => admin.end());
  const machine = await describeMachine(admin);

  const env = { NATS_URL: nats.url, DATABASE_URL: db.appUrl, LOG_LEVEL: options.logLevel };
  const services: ServiceProcess[] = [];
  for (const name of RETRIEVAL_SERVICES)
    services.push(
      await startReadyService(cleanups, name, { ...env, ...(name === 'retrieval' && options.retrievalEnv) }),
    );
  const byName = (name: string) => services.find((s) => s.name === name)!;
  await waitFor(
    'ingest and embedder consuming',
    async () =>
      !!consumerSettings(byName('ingest'), Consumers.ingestTurns.durable) &&
      !!consumerSettings(byName('embedder'), Consumers.embedderMessages.durable),
    30_000,
  );
  progress(`${services.map((s) => `${s.name} (pid ${s.pid})`).join(', ')} ready`);

  const nc = await connect({ servers: nats.url, name: `engram-bench-${options.name}` });
  cleanups.add(() => nc.close());
  return {
    natsUrl: nats.url,
    databaseName: db.name,
    admin,
    machine,
    services,
    retrieval: byName('retrieval'),
    nc,
    js: jetstream(nc),
    jsm: await jetstreamManager(nc),
  };
}

/** How ingestion went, in seconds from the first publish. */
export interface IngestFigures {
  /** First publish → last publish acknowledged by JetStream. */
  readonly publishSeconds: number;
  /** First publish → every turn stored as a message. */
  readonly storedSeconds: number;
  /** First publish → every message with a vector. */
  readonly embeddedSeconds: number;
  readonly duplicatePublishes: number;
  readonly publishRetries: number;
}

/** Ingestion's figures, with what was stored and the dead letters. */
export type Ingested = IngestFigures & { readonly deadLetters: number; readonly messages: number };

export interface IngestOptions {
  readonly tenantId: string;
  /** Publishes awaiting their JetStream ack at once. */
  readonly window: number;
  readonly timeoutSeconds: number;
  /** A progress line at most every 2 s. */
  readonly progress: (line: string) => void;
}

/**
 * Publishes every turn (one message each) and waits until each is stored with its vector; the
 * wait ends early once only dead-lettered turns are missing, or after 60 s without progress.
 * A run that does not finish fails naming the turns the store lacks, each with its dead
 * letter's reason.
 */
export async function ingestTurns(
  stack: RetrievalStack,
  turns: readonly CorpusTurn[],
  options: IngestOptions,
): Promise<Ingested> {
  const expected = turns.reduce((n, t) => n + t.messageCount, 0);
  options.progress(
    `publishing ${turns.length} turns to tenant "${options.tenantId}", then waiting for every message and its vector`,
  );
  const startedAt = performance.now();
  let lastLine = 0;
  const letters = new TurnDeadLetters(stack.jsm);
  const messagesOf = new Map(turns.map((t) => [t.msgId, t.messageCount]));
  const deadRows = async () => {
    let rows = 0;
    for (const msgId of (await letters.read()).keys()) rows += messagesOf.get(msgId) ?? 0;
    return rows;
  };
  const [published, drained] = await Promise.all([
    publishTurns(stack.js, turns, options.window, startedAt),
    waitForEmbeddedRows(stack.admin, {
      tenants: [options.tenantId],
      expectedRows: expected,
      timeoutMs: options.timeoutSeconds * 1000,
      stallMs: 60_000,
      deadRows,
      onPoll: (now) => {
        const at = performance.now();
        if (at - lastLine < 2000) return;
        lastLine = at;
        options.progress(
          `  ${((at - startedAt) / 1000).toFixed(0)} s: ${now.rows}/${expected} stored, ${now.rows - now.missing} with a vector`,
        );
      },
    }),
  ]);
  const deadLetters = (await stack.jsm.streams.info(Streams.deadLetters.name)).state.messages;
  if (!drained.complete) {
    const stored = await stack.admin.query<{ agent: string; turn_id: string }>(
      `SELECT DISTINCT c.agent, m.turn_id FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE m.tenant_id = $1`,
      [options.tenantId],
    );
    const missing = missingTurns(
      turns,
      new Set(stored.rows.map((r) => storedTurnKey(r.agent, r.turn_id))),
      await letters.read(),
    );
    throw new Error(
      `ingestion did not finish (${drained.gaveUp}): ${drained.rows}/${expected} messages stored, ${drained.missing} of them without a vector, ` +
        `${deadLetters} dead letters (--ingest-timeout ${options.timeoutSeconds} s); ` +
        `${missing.length} turns not stored:\n${describeMissingTurns(missing)}`,
    );
  }
  const seconds = (at: number | undefined) => ((at ?? performance.now()) - startedAt) / 1000;
  const figures = {
    publishSeconds: seconds(published.finishedAt),
    storedSeconds: seconds(drained.storedAt),
    embeddedSeconds: seconds(drained.embeddedAt),
    duplicatePublishes: published.duplicates,
    publishRetries: published.retries,
  };
  options.progress(
    `stored after ${figures.storedSeconds.toFixed(1)} s, every vector after ${figures.embeddedSeconds.toFixed(1)} s`,
  );
  return { ...figures, deadLetters, messages: drained.rows };
}

/** The flags every recall bench takes beside its own. */
export interface RecallBenchFlags {
  readonly tenant: string;
  readonly concurrency: number;
  readonly window: number;
  readonly ingestTimeout: number;
  readonly searchTimeoutMs: number;
  readonly logLevel: string;
  readonly keepDatabase: boolean;
  readonly cpuProf: boolean;
  readonly json: boolean;
  readonly out: string;
}

/** How a recall bench ran, as its result says. */
export interface RecallBenchSettings {
  readonly tenant: string;
  readonly topK: number;
  readonly concurrency: number;
  readonly services: readonly string[];
  readonly publishWindow: number;
}

/** The settings every recall bench reports, from its flags. */
export function recallBenchSettings(flags: RecallBenchFlags): RecallBenchSettings {
  return {
    tenant: flags.tenant,
    topK: RECALL_TOP_K,
    concurrency: flags.concurrency,
    services: [...RETRIEVAL_SERVICES],
    publishWindow: flags.window,
  };
}

function tenantId(value: string): string {
  if (!isValidToken(value)) throw new InvalidArgumentError('letters, digits, "_" and "-" only (at most 64)');
  return value;
}

/** Adds the flags every recall bench takes (RecallBenchFlags), with its own defaults. */
export function withRecallBenchOptions(
  program: Command,
  defaults: { tenant: string; concurrency: number; ingestTimeout: number; headline: string; out: string },
): Command {
  return program
    .option('--tenant <id>', 'the scratch tenant everything is ingested into', tenantId, defaults.tenant)
    .option('--concurrency <n>', 'memory_search requests at once', integer(1), defaults.concurrency)
    .option('--window <n>', 'publishes awaiting their JetStream ack at once', integer(1), 256)
    .option(
      '--ingest-timeout <s>',
      'seconds to wait for every message and its vector (it also stops after 60 s without progress, and once only dead-lettered turns are missing)',
      integer(1),
      defaults.ingestTimeout,
    )
    .option('--search-timeout-ms <ms>', 'how long one memory_search may take', integer(1), 30_000)
    .option('--log-level <level>', 'LOG_LEVEL of the services', 'info')
    .option(
      '--keep-database',
      'keep the scratch database afterwards, to look into what was ranked and why',
      false,
    )
    .option(
      '--cpu-prof',
      "sample retrieval's CPU while the questions are asked (V8 profiler); its summary goes into the result (search.retrievalProfile)",
      false,
    )
    .option('--json', `print ${defaults.headline} as the last line of stdout`, false)
    .option('--out <file>', 'where to write the full result (relative to the repository)', defaults.out);
}

/**
 * A recall bench's run: the stack started, `turns` ingested, then `measure`; the services' last
 * output shown when it fails, and everything undone however it ends.
 */
export async function runRecallBench(
  run: {
    readonly name: string;
    readonly flags: RecallBenchFlags;
    readonly turns: readonly CorpusTurn[];
    readonly cleanups: Cleanups;
    readonly progress: (line: string) => void;
  },
  measure: (ran: {
    stack: RetrievalStack;
    ingested: Ingested;
    /** Asks every question (askEveryQuestion) with the run's flags, RECALL_TOP_K hits each. */
    ask: (questions: readonly Question[]) => Promise<{ answers: Answer[]; figures: SearchFigures }>;
  }) => Promise<void>,
): Promise<void> {
  const { flags, progress } = run;
  let stack: RetrievalStack | undefined;
  try {
    const profiler = flags.cpuProf ? new ServiceProfile(`retrieval-${run.name}`) : undefined;
    stack = await startRetrievalStack(run.cleanups, progress, {
      name: run.name,
      logLevel: flags.logLevel,
      keepDatabase: flags.keepDatabase,
      ...(profiler && { retrievalEnv: profiler.env }),
    });
    const ingested = await ingestTurns(stack, run.turns, {
      tenantId: flags.tenant,
      window: flags.window,
      timeoutSeconds: flags.ingestTimeout,
      progress,
    });
    const ready = stack;
    const ask = (questions: readonly Question[]) =>
      askEveryQuestion(ready.nc, questions, {
        tenantId: flags.tenant,
        topK: RECALL_TOP_K,
        concurrency: flags.concurrency,
        timeoutMs: flags.searchTimeoutMs,
        progress,
        retrieval: ready.retrieval,
        ...(profiler && { profiler }),
      });
    await measure({ stack, ingested, ask });
  } catch (error) {
    // No handler at all needs no logs; a handler that failed is explained by retrieval's.
    if (!(error instanceof SearchUnavailableError)) dumpServiceOutput(stack?.services ?? []);
    else if (error.code !== 'UNAVAILABLE' && stack) dumpServiceOutput([stack.retrieval], 4000);
    throw error;
  } finally {
    await run.cleanups.run();
  }
}
