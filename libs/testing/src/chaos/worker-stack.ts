import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { lastLines, startService, type ServiceProcess } from '../service-process';
import { CHAOS_WORKERS, type ChaosWorker } from './fault-plan';
import { scrapeWork, WorkTally, type ReplicaWork } from './replica-work';

export interface WorkerStackOptions {
  /** What every process gets: NATS_URL, DATABASE_URL, log level … */
  readonly env: Record<string, string>;
  /**
   * Processes of each worker (default 1), or of the workers named (the rest 1), sharing their
   * durable consumers and queue groups.
   */
  readonly replicas?: number | Partial<Readonly<Record<ChaosWorker, number>>>;
  /** Environment of one replica over `env` (e.g. retrieval's RPC_REPLICA). */
  readonly replicaEnv?: (worker: ChaosWorker, replica: number) => Record<string, string>;
  readonly progress: (line: string) => void;
  /** Where each process's output goes when it exits (`<worker>-<replica>.log`, appended), to read after a run. */
  readonly logDir?: string;
}

/**
 * Every worker (CHAOS_WORKERS) as its own processes, `replicas` of each. A process that exits
 * without being killed is a crash: recorded (a failure of the run) and replaced, as an
 * orchestrator would.
 */
export class WorkerStack {
  /** Workers that exited without being killed, each with its last lines. */
  readonly crashes: string[] = [];
  /** Processes that exited before they were ready and were started again, with why. */
  readonly startRetries: string[] = [];
  private readonly killing = new Set<ServiceProcess>();
  private readonly work = new WorkTally();
  private stopping = false;

  private constructor(
    private readonly options: WorkerStackOptions,
    private readonly processes: Map<ChaosWorker, ServiceProcess[]>,
  ) {
    for (const replicas of processes.values()) replicas.forEach((service, i) => this.watch(service, i));
  }

  /**
   * Starts every worker's first replica and waits until all are ready (they create the streams
   * and consumers), then the second replicas, and so on. A process that exits before it is ready
   * (e.g. a JetStream request timed out while a cluster is busy electing leaders) is started
   * again, at most twice, as an orchestrator would; `startRetries` says how often.
   */
  static async start(options: WorkerStackOptions): Promise<WorkerStack> {
    const processes = new Map<ChaosWorker, ServiceProcess[]>(CHAOS_WORKERS.map((name) => [name, []]));
    const retries: string[] = [];
    const replicasOf = (name: ChaosWorker) =>
      typeof options.replicas === 'number' ? options.replicas : (options.replicas?.[name] ?? 1);
    const most = Math.max(...CHAOS_WORKERS.map(replicasOf));
    try {
      for (let replica = 0; replica < most; replica++)
        await Promise.all(
          CHAOS_WORKERS.filter((name) => replica < replicasOf(name)).map(async (name) => {
            for (let attempt = 0; ; attempt++) {
              const service = await startService(name, WorkerStack.envOf(options, name, replica));
              processes.get(name)![replica] = service;
              const failure = await service.waitUntilReady(180_000).then(
                () => null,
                (error: Error) => error,
              );
              if (!failure) return;
              service.kill('SIGKILL');
              await service.exited;
              if (attempt === 2) throw failure;
              retries.push(`${name}/${replica}: ${failure.message.split('\n').slice(0, 3).join(' ')}`);
              options.progress(`${name}/${replica} exited before it was ready; starting it again`);
            }
          }),
        );
      const stack = new WorkerStack(options, processes);
      stack.startRetries.push(...retries);
      return stack;
    } catch (error) {
      const all = [...processes.values()].flat();
      for (const service of all) service.kill('SIGKILL');
      await Promise.all(all.map((s) => s.exited));
      throw error;
    }
  }

  private static envOf(
    options: WorkerStackOptions,
    name: ChaosWorker,
    replica: number,
  ): Record<string, string> {
    return { ...options.env, ...options.replicaEnv?.(name, replica) };
  }

  /** The running process of a worker's replica. */
  service(name: ChaosWorker, replica = 0): ServiceProcess {
    const service = this.processes.get(name)?.[replica];
    if (!service) throw new Error(`${name} has no replica ${replica}`);
    return service;
  }

  /** A worker's processes, by replica. */
  replicas(name: ChaosWorker): readonly ServiceProcess[] {
    return this.processes.get(name) ?? [];
  }

  /**
   * What every process of the stack did so far (WorkTally): the running ones read now, the
   * killed ones as read just before their kill. One that does not answer keeps its last reading.
   */
  async readWork(): Promise<ReplicaWork> {
    await Promise.all([...this.processes.values()].flat().map((service) => this.readWorkOf(service)));
    return this.work.total();
  }

  /** SIGKILL, and wait until the process is gone; it is not restarted. */
  async kill(name: ChaosWorker, replica = 0): Promise<void> {
    const victim = this.service(name, replica);
    await this.readWorkOf(victim);
    this.killing.add(victim);
    victim.kill('SIGKILL');
    await victim.exited;
  }

  /** SIGKILL, then a new process of the same replica, ready. */
  async killAndRestart(name: ChaosWorker, replica = 0): Promise<void> {
    await this.kill(name, replica);
    await this.launch(name, replica);
  }

  private readWorkOf(service: ServiceProcess): Promise<void> {
    return scrapeWork(service).then(
      (work) => this.work.record(service, work),
      () => undefined,
    );
  }

  /** Every process's last output, for a failed run. */
  outputs(): string {
    return [...this.processes.values()]
      .flat()
      .map((s) => `--- ${s.name} (pid ${s.pid}) ---\n${s.output().slice(-3000)}`)
      .join('\n');
  }

  /** SIGTERM to every process still running (SIGKILL after 20 s), and wait until all are gone. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      [...this.processes.values()].flat().map(async (service) => {
        service.kill('SIGCONT');
        service.kill('SIGTERM');
        const late = setTimeout(() => {
          this.options.progress(`${service.name} did not stop within 20 s of SIGTERM: SIGKILL`);
          service.kill('SIGKILL');
        }, 20_000);
        await service.exited;
        clearTimeout(late);
      }),
    );
  }

  private watch(service: ServiceProcess, replica: number): void {
    void service.exited.then(async (how) => {
      this.keepLog(service, replica, how);
      if (this.killing.has(service) || this.stopping) return;
      this.crashes.push(
        `${service.name} exited on its own (${how}): ${lastLines(service.output(), 3).join(' | ').slice(-600)}`,
      );
      this.options.progress(`${service.name} crashed (${how}); restarting it`);
      await this.launch(service.name as ChaosWorker, replica).catch((e: Error) =>
        this.options.progress(e.message),
      );
    });
  }

  /** The exited process's output, appended to its replica's file in logDir (when there is one). */
  private keepLog(service: ServiceProcess, replica: number, how: number | NodeJS.Signals): void {
    const dir = this.options.logDir;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    appendFileSync(
      join(dir, `${service.name}-${replica}.log`),
      `${service.output()}--- pid ${service.pid} exited (${how}) ---\n`,
    );
  }

  /** A new process of the worker's replica, watched, ready. */
  private async launch(name: ChaosWorker, replica: number): Promise<void> {
    const fresh = await startService(name, WorkerStack.envOf(this.options, name, replica));
    this.processes.get(name)![replica] = fresh;
    this.watch(fresh, replica);
    await fresh.waitUntilReady(180_000);
  }
}
