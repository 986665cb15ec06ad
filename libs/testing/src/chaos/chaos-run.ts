import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Client } from 'pg';
import { sleep } from '../free-port';
import { startNatsServer, type NatsServerHandle } from '../nats-server';
import {
  connectEngramAdmin,
  migrateEngramDatabase,
  startPostgresServer,
  type PostgresServerHandle,
} from '../postgres-server';
import { CHAOS_WORKERS, planFaults, type ChaosWorker, type Fault } from './fault-plan';
import { failedCallProblems, type InflictedFault } from './failed-calls';
import { runWorkload, type WorkloadOptions, type WorkloadReport } from './workload';
import { WorkerStack } from './worker-stack';

export interface ChaosOptions extends WorkloadOptions {
  readonly killsPerWorker: number;
  readonly gertyStallMs: number;
  /** Where every worker process's output is kept (WorkerStackOptions.logDir). */
  readonly logDir?: string;
  /** The share of each kind of call that may fail (MAX_FAILED_SHARE when absent); null: unchecked. */
  readonly maxFailedCallShare?: number | null;
}

export type ChaosReport = WorkloadReport;

/**
 * A whole stack (every worker as its own process, a private nats-server and a private Postgres)
 * under sustained ingest and search load while the fault plan SIGKILLs each worker, restarts
 * nats-server and Postgres and stalls Gerty; then the pipeline is left to catch up and the run
 * counts what was published, stored, lost, duplicated and dead-lettered, and checks every
 * derived artefact. A worker that exited on its own is a problem of the run, and so are searches
 * or context builds that failed too often or where no fault explains them (failedCallProblems).
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const stack = await ChaosStack.start(options.progress, options.logDir);
  try {
    const plan = planFaults({
      loadMs: options.loadSeconds * 1000,
      killsPerWorker: options.killsPerWorker,
      gertyStallMs: options.gertyStallMs,
    });
    const report = await runWorkload(stack, options, (started) => inflict(stack, plan, started, options));
    const calls = { search: report.searches, 'context build': report.contextBuilds };
    const problems = [
      ...report.problems,
      ...failedCallProblems(calls, report.failedCalls, options.maxFailedCallShare),
      ...stack.workers.crashes,
    ];
    if (problems.length > 0) options.progress(stack.workers.outputs());
    return { ...report, problems };
  } finally {
    await stack.stop();
  }
}

/**
 * The workers that answer callers run two processes, as a deployment that keeps answering through
 * a kill does: a kill costs the calls in flight on the killed process, not its restart. The kills
 * take the replicas in turn, one at a time.
 */
export const CHAOS_REPLICAS: Partial<Readonly<Record<ChaosWorker, number>>> = {
  retrieval: 2,
  'context-builder': 2,
};

/** The stack a chaos run breaks: its workers, and NATS and Postgres, restartable. */
class ChaosStack {
  private constructor(
    readonly pg: PostgresServerHandle,
    readonly nats: NatsServerHandle,
    readonly nc: NatsConnection,
    readonly workers: WorkerStack,
    private readonly progress: (line: string) => void,
  ) {}

  /** The test's one connection: turns, RPCs and stream checks. */
  get connections(): readonly NatsConnection[] {
    return [this.nc];
  }

  static async start(progress: (line: string) => void, logDir?: string): Promise<ChaosStack> {
    const [pg, nats] = await Promise.all([startPostgresServer(), startNatsServer()]);
    let nc: NatsConnection | undefined;
    try {
      const databaseUrl = await migrateEngramDatabase(pg);
      nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
      const workers = await WorkerStack.start({
        env: {
          NATS_URL: nats.url,
          DATABASE_URL: databaseUrl,
          LOG_LEVEL: 'warn',
          RETRY_BASE_DELAY_MS: '200',
          RETRY_MAX_DELAY_MS: '2000',
        },
        replicas: CHAOS_REPLICAS,
        progress,
        ...(logDir && { logDir }),
      });
      progress(`stack up: postgres :${pg.port}, nats :${nats.port}, ${CHAOS_WORKERS.join(', ')}`);
      return new ChaosStack(pg, nats, nc, workers, progress);
    } catch (error) {
      await nc?.close();
      await nats.stop();
      await pg.stop();
      throw error;
    }
  }

  /** A superuser connection of its own (one kept open would die with the Postgres restart). */
  connectAdmin(): Promise<Client> {
    return connectEngramAdmin(this.pg);
  }

  async acknowledged(): Promise<Readonly<Record<string, number>>> {
    return this.workers.readWork();
  }

  async stop(): Promise<void> {
    await this.workers.stop();
    await this.nc.close().catch(() => undefined);
    await this.nats.stop();
    await this.pg.stop();
    this.progress('stack down');
  }
}

/**
 * Each fault of the plan at its time; returns what was done and until when (a kill lasts until
 * the new process is ready, a restart until the server is back). Kills of different workers and
 * the stall may overlap, so a slow restart does not push the plan, and with it the load, later
 * (a slower machine would otherwise get a longer, heavier run). A NATS or Postgres restart waits
 * for the faults in flight and holds back the next, so no worker starts while a server is down.
 */
async function inflict(
  stack: ChaosStack,
  plan: readonly Fault[],
  started: number,
  options: ChaosOptions,
): Promise<InflictedFault[]> {
  const seconds = () => (Date.now() - started) / 1000;
  const done: Array<Promise<InflictedFault>> = [];
  const inFlight = new Set<Promise<unknown>>();
  const lastOf = new Map<ChaosWorker, Promise<unknown>>();
  const killsOf = new Map<ChaosWorker, number>();
  for (const fault of plan) {
    await sleep(fault.atMs - (Date.now() - started));
    const exclusive = fault.kind === 'restart-nats' || fault.kind === 'restart-postgres';
    if (exclusive) await Promise.all(inFlight);
    if (fault.kind === 'kill') await lastOf.get(fault.worker);
    const replica = fault.kind === 'kill' ? replicaToKill(stack, fault.worker, killsOf) : 0;
    const what =
      fault.kind === 'kill'
        ? `kill ${fault.worker}${stack.workers.replicas(fault.worker).length > 1 ? `/${replica}` : ''}`
        : fault.kind;
    const fromSeconds = seconds();
    options.progress(`${fromSeconds.toFixed(1)} s: ${what}`);
    const over =
      fault.kind === 'kill'
        ? stack.workers.killAndRestart(fault.worker, replica)
        : fault.kind === 'restart-nats'
          ? stack.nats.restart()
          : fault.kind === 'restart-postgres'
            ? stack.pg.restart()
            : stallGerty(stack, fault.forMs, options);
    const inflicted = over.then(() => ({ what, fromSeconds, toSeconds: seconds() }));
    done.push(inflicted);
    inFlight.add(inflicted);
    void inflicted.finally(() => inFlight.delete(inflicted)).catch(() => undefined);
    if (fault.kind === 'kill')
      lastOf.set(
        fault.worker,
        inflicted.catch(() => undefined),
      );
    if (exclusive) await inflicted;
  }
  return Promise.all(done);
}

/** The worker's replicas in turn: its n-th kill hits replica n modulo their number. */
function replicaToKill(stack: ChaosStack, worker: ChaosWorker, killsOf: Map<ChaosWorker, number>): number {
  const n = killsOf.get(worker) ?? 0;
  killsOf.set(worker, n + 1);
  return n % stack.workers.replicas(worker).length;
}

/** Gerty stopped (SIGSTOP) for `forMs`, then continued. */
async function stallGerty(stack: ChaosStack, forMs: number, options: ChaosOptions): Promise<void> {
  const gerty = stack.workers.service('gerty');
  gerty.kill('SIGSTOP');
  await sleep(forMs);
  gerty.kill('SIGCONT');
  options.progress(`gerty resumed after ${forMs / 1000} s`);
}
