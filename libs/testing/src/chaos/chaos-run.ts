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
import { CHAOS_WORKERS, planFaults, type Fault } from './fault-plan';
import { runWorkload, type WorkloadOptions, type WorkloadReport } from './workload';
import { WorkerStack } from './worker-stack';

export interface ChaosOptions extends WorkloadOptions {
  readonly killsPerWorker: number;
  readonly gertyStallMs: number;
}

export type ChaosReport = WorkloadReport;

/**
 * A whole stack (every worker as its own process, a private nats-server and a private Postgres)
 * under sustained ingest and search load while the fault plan SIGKILLs each worker, restarts
 * nats-server and Postgres and stalls Gerty; then the pipeline is left to catch up and the run
 * counts what was published, stored, lost, duplicated and dead-lettered, and checks every
 * derived artefact. A worker that exited on its own is a problem of the run.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const stack = await ChaosStack.start(options.progress);
  try {
    const plan = planFaults({
      loadMs: options.loadSeconds * 1000,
      killsPerWorker: options.killsPerWorker,
      gertyStallMs: options.gertyStallMs,
    });
    const report = await runWorkload(stack, options, (started) => inflict(stack, plan, started, options));
    const problems = [...report.problems, ...stack.workers.crashes];
    if (problems.length > 0) options.progress(stack.workers.outputs());
    return { ...report, problems };
  } finally {
    await stack.stop();
  }
}

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

  static async start(progress: (line: string) => void): Promise<ChaosStack> {
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
        progress,
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

  async stop(): Promise<void> {
    await this.workers.stop();
    await this.nc.close().catch(() => undefined);
    await this.nats.stop();
    await this.pg.stop();
    this.progress('stack down');
  }
}

/** Each fault of the plan at its time, one after the other; returns what was done, for the report. */
async function inflict(
  stack: ChaosStack,
  plan: readonly Fault[],
  started: number,
  options: ChaosOptions,
): Promise<string[]> {
  const done: string[] = [];
  const stalls: Array<Promise<void>> = [];
  for (const fault of plan) {
    await sleep(fault.atMs - (Date.now() - started));
    const label = fault.kind === 'kill' ? `kill ${fault.worker}` : fault.kind;
    const at = ((Date.now() - started) / 1000).toFixed(1);
    options.progress(`${at} s: ${label}`);
    if (fault.kind === 'kill') await stack.workers.killAndRestart(fault.worker);
    else if (fault.kind === 'restart-nats') await stack.nats.restart();
    else if (fault.kind === 'restart-postgres') await stack.pg.restart();
    else stalls.push(stallGerty(stack, fault.forMs, options));
    done.push(`${at} s ${label}`);
  }
  await Promise.all(stalls);
  return done;
}

/** Gerty stopped (SIGSTOP) for `forMs`, then continued. */
async function stallGerty(stack: ChaosStack, forMs: number, options: ChaosOptions): Promise<void> {
  const gerty = stack.workers.service('gerty');
  gerty.kill('SIGSTOP');
  await sleep(forMs);
  gerty.kill('SIGCONT');
  options.progress(`gerty resumed after ${forMs / 1000} s`);
}
