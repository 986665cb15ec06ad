import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { Client } from 'pg';
import { ALL_STREAMS, DeadLetterSchema, Rpcs, Streams, Subjects, decodeMessage } from '@engram/contracts';
import { callRpc } from '@engram/messaging';
import { migrateDatabase, setupDatabase } from '@engram/store';
import { waitFor } from '../free-port';
import { startNatsServer, type NatsServerHandle } from '../nats-server';
import { startPostgresServer, type PostgresServerHandle } from '../postgres-server';
import { startService, type ServiceProcess } from '../service-process';
import { CHAOS_WORKERS, planFaults, type ChaosWorker, type Fault } from './fault-plan';
import { chaosTurn, type ChaosTurn } from './chaos-turns';
import { checkConsistency } from './consistency';

export interface ChaosOptions {
  /** How long the load (and every fault) runs. */
  readonly loadSeconds: number;
  /** Messages published per second, in turns of one to four. */
  readonly messagesPerSecond: number;
  readonly killsPerWorker: number;
  readonly gertyStallMs: number;
  /** Concurrent callers of memory search and context builds during the load. */
  readonly searchers: number;
  /** How long the pipeline may take to catch up after the load before the run counts what is stuck. */
  readonly settleTimeoutMs: number;
  readonly progress: (line: string) => void;
}

/** The counts the issue asks for, printed as the run's last line. */
export interface ChaosCounts {
  /** Messages in turns JetStream acknowledged. */
  readonly published: number;
  /** Of those, how many are in the transcript. */
  readonly stored: number;
  readonly lost: number;
  /** Rows beyond one per message (the natural key: conversation, turn, position). */
  readonly duplicated: number;
  readonly deadLetters: number;
}

export interface ChaosReport extends ChaosCounts {
  readonly faults: readonly string[];
  readonly searches: { readonly answered: number; readonly failed: number };
  readonly contextBuilds: { readonly answered: number; readonly failed: number };
  readonly scenesAdded: number;
  /** From the end of the load until the pipeline had caught up (or the settle timeout). */
  readonly catchUpSeconds: number;
  /** Broken invariants after the run (empty when every derived artefact is consistent). */
  readonly problems: readonly string[];
}

const TENANTS = ['acme', 'globex', 'initech'] as const;
const AGENTS = ['agent-0', 'agent-1'] as const;
const SEARCH_WORDS = ['coffee', 'Lisbon', 'deadline', 'piano', 'invoice', 'garden', 'Sam', 'birthday'];

/**
 * A whole stack (every worker as its own process, a private nats-server and a private Postgres)
 * under sustained ingest and search load while the fault plan SIGKILLs each worker, restarts
 * nats-server and Postgres and stalls Gerty; then the pipeline is left to catch up and the run
 * counts what was published, stored, lost, duplicated and dead-lettered, and checks every
 * derived artefact.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const stack = await ChaosStack.start(options.progress);
  try {
    return await new ChaosLoad(stack, options).run();
  } finally {
    await stack.stop();
  }
}

/** The stack a chaos run breaks: services restartable by name, NATS and Postgres restartable. */
class ChaosStack {
  private constructor(
    readonly pg: PostgresServerHandle,
    readonly nats: NatsServerHandle,
    readonly nc: NatsConnection,
    readonly env: Record<string, string>,
    private readonly services: Map<ChaosWorker, ServiceProcess>,
    private readonly progress: (line: string) => void,
  ) {
    for (const service of services.values()) this.watch(service);
  }

  /** Workers that exited without being killed: each a failure of the run (then restarted, as an orchestrator would). */
  readonly crashes: string[] = [];
  private readonly killing = new Set<ServiceProcess>();
  private stopping = false;

  private watch(service: ServiceProcess): void {
    void service.exited.then(async (how) => {
      if (this.killing.has(service) || this.stopping) return;
      this.crashes.push(`${service.name} exited on its own (${how}): ${lastLines(service.output())}`);
      this.progress(`${service.name} crashed (${how}); restarting it`);
      await this.launch(service.name as ChaosWorker).catch((e: Error) => this.progress(e.message));
    });
  }

  /** A new process of the worker, watched, ready. */
  private async launch(name: ChaosWorker): Promise<void> {
    const fresh = await startService(name, this.env);
    this.services.set(name, fresh);
    this.watch(fresh);
    await fresh.waitUntilReady(180_000);
  }

  static async start(progress: (line: string) => void): Promise<ChaosStack> {
    const [pg, nats] = await Promise.all([startPostgresServer(), startNatsServer()]);
    const services = new Map<ChaosWorker, ServiceProcess>();
    try {
      const on = (role: string) => `postgres://${role}@127.0.0.1:${pg.port}/engram`;
      await setupDatabase({
        adminUrl: pg.adminUrl(),
        ownerUrl: on('engram_owner'),
        appUrl: on('engram_app'),
      });
      await migrateDatabase(on('engram_owner'));
      const env = {
        NATS_URL: nats.url,
        DATABASE_URL: on('engram_app'),
        LOG_LEVEL: 'warn',
        RETRY_BASE_DELAY_MS: '200',
        RETRY_MAX_DELAY_MS: '2000',
      };
      for (const name of CHAOS_WORKERS) services.set(name, await startService(name, env));
      await Promise.all([...services.values()].map((s) => s.waitUntilReady(180_000)));
      const nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
      progress(`stack up: postgres :${pg.port}, nats :${nats.port}, ${CHAOS_WORKERS.join(', ')}`);
      return new ChaosStack(pg, nats, nc, env, services, progress);
    } catch (error) {
      for (const service of services.values()) service.kill('SIGKILL');
      await Promise.all([...services.values()].map((s) => s.exited));
      await nats.stop();
      await pg.stop();
      throw error;
    }
  }

  service(name: ChaosWorker): ServiceProcess {
    return this.services.get(name)!;
  }

  /** SIGKILL, then a new process of the same worker, ready. */
  async killAndRestart(name: ChaosWorker): Promise<void> {
    const old = this.service(name);
    this.killing.add(old);
    old.kill('SIGKILL');
    await old.exited;
    await this.launch(name);
  }

  /** A superuser connection of its own (one kept open would die with the Postgres restart). */
  async reconnectAdmin(): Promise<Client> {
    const admin = new Client({ connectionString: this.pg.adminUrl('engram') });
    admin.on('error', () => undefined);
    await admin.connect();
    return admin;
  }

  /** Every worker's output, for a failed run. */
  outputs(): string {
    return [...this.services.values()].map((s) => `--- ${s.name} ---\n${s.output().slice(-3000)}`).join('\n');
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      [...this.services.values()].map(async (service) => {
        service.kill('SIGCONT');
        service.kill('SIGTERM');
        const late = setTimeout(() => {
          this.progress(`${service.name} did not stop within 20 s of SIGTERM: SIGKILL`);
          service.kill('SIGKILL');
        }, 20_000);
        await service.exited;
        clearTimeout(late);
      }),
    );
    await this.nc.close().catch(() => undefined);
    await this.nats.stop();
    await this.pg.stop();
    this.progress('stack down');
  }
}

/** One run's load, faults and tallies. */
class ChaosLoad {
  private readonly js: JetStreamClient;
  private readonly acked = new Map<string, ChaosTurn>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly searches = { answered: 0, failed: 0 };
  private readonly contextBuilds = { answered: 0, failed: 0 };
  private scenesAdded = 0;
  private loadOver = false;
  private faultsOver = false;

  constructor(
    private readonly stack: ChaosStack,
    private readonly options: ChaosOptions,
  ) {
    this.js = jetstream(stack.nc);
  }

  async run(): Promise<ChaosReport> {
    const loadMs = this.options.loadSeconds * 1000;
    const plan = planFaults({
      loadMs,
      killsPerWorker: this.options.killsPerWorker,
      gertyStallMs: this.options.gertyStallMs,
    });
    const started = Date.now();
    const searchers = Array.from({ length: this.options.searchers }, (_, i) => this.searchLoop(i));
    const scenes = this.sceneLoop();
    // The load goes on until the last fault is over (a restart under load can take longer than planned).
    const faults = this.inflict(plan, started).finally(() => (this.faultsOver = true));
    await Promise.all([faults, this.publishLoop(started, loadMs)]);
    this.loadOver = true;
    await Promise.all([...searchers, scenes]);
    this.options.progress(`load over: ${this.publishedMessages()} messages acknowledged; catching up`);
    const loadOverAt = Date.now();
    let problems = await this.settle();
    const catchUpSeconds = Math.round((Date.now() - loadOverAt) / 1000);
    const admin = await this.stack.reconnectAdmin();
    try {
      const { counts, deadLettersWithoutReason } = await this.count(admin);
      problems = [...problems, ...this.stack.crashes, ...(await checkConsistency(admin))];
      if (deadLettersWithoutReason > 0)
        problems.push(`dead letters without a reason: ${deadLettersWithoutReason}`);
      if (problems.length > 0) this.options.progress(this.stack.outputs());
      return {
        ...counts,
        faults: await faults,
        searches: this.searches,
        contextBuilds: this.contextBuilds,
        scenesAdded: this.scenesAdded,
        catchUpSeconds,
        problems,
      };
    } finally {
      await admin.end();
    }
  }

  /** Turns at the asked rate for `loadMs` and until the faults are over; each is published until JetStream acknowledges it. */
  private async publishLoop(started: number, loadMs: number): Promise<void> {
    let sent = 0;
    let n = 0;
    while (Date.now() - started < loadMs || !this.faultsOver) {
      const due = Math.floor(((Date.now() - started) / 1000) * this.options.messagesPerSecond);
      while (sent < due && this.inFlight.size < 2000) {
        const turn = chaosTurn(n++, TENANTS, AGENTS);
        sent += turn.messages.length;
        const publishing = this.publishUntilAcked(turn).finally(() => this.inFlight.delete(publishing));
        this.inFlight.add(publishing);
      }
      await sleep(20);
    }
    await Promise.all(this.inFlight);
  }

  /** What a runtime does: the same turn under the same msg id until JetStream has it (duplicates dropped). */
  private async publishUntilAcked(turn: ChaosTurn): Promise<void> {
    const body = JSON.stringify({
      turnId: turn.turnId,
      sessionKey: turn.sessionKey,
      messages: turn.messages,
    });
    for (let attempt = 0; ; attempt++) {
      try {
        await this.js.publish(Subjects.turn(turn.tenant, turn.agent), body, {
          msgID: turn.turnId,
          timeout: 5000,
        });
        this.acked.set(turn.turnId, turn);
        return;
      } catch {
        await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt, 5)));
      }
    }
  }

  /** Memory search and context builds, one after the other, until the load ends. */
  private async searchLoop(index: number): Promise<void> {
    for (let i = 0; !this.loadOver; i++) {
      const tenantId = TENANTS[(index + i) % TENANTS.length]!;
      const agent = AGENTS[i % AGENTS.length]!;
      const word = SEARCH_WORDS[(index * 7 + i) % SEARCH_WORDS.length]!;
      const contextBuild = i % 2 === 1;
      try {
        if (contextBuild)
          await callRpc(
            this.stack.nc,
            Rpcs.contextBuild,
            { agent, sessionKey: `session-${i % 4}`, currentMessage: `what about the ${word}?` },
            { tenantId, timeoutMs: 5000 },
          );
        else
          await callRpc(this.stack.nc, Rpcs.search, { query: word, topK: 5 }, { tenantId, timeoutMs: 5000 });
        (contextBuild ? this.contextBuilds : this.searches).answered++;
      } catch {
        (contextBuild ? this.contextBuilds : this.searches).failed++;
        await sleep(100);
      }
      await sleep(10);
    }
  }

  /** A scene for each tenant's agents every two seconds: the patrol makes each note a node. */
  private async sceneLoop(): Promise<void> {
    for (let i = 0; !this.loadOver; i++) {
      for (const tenantId of TENANTS) {
        const scene = JSON.stringify({
          action: `met Sam about the ${SEARCH_WORDS[i % SEARCH_WORDS.length]}`,
          actors: ['Sam'],
        });
        await callRpc(
          this.stack.nc,
          Rpcs.beingSceneAdd,
          { agent: AGENTS[i % AGENTS.length]!, scene },
          { tenantId, timeoutMs: 5000 },
        ).then(
          () => this.scenesAdded++,
          () => undefined,
        );
      }
      await sleep(2000);
    }
  }

  /** Each fault at its time, one after the other; returns what was done, for the report. */
  private async inflict(plan: readonly Fault[], started: number): Promise<string[]> {
    const done: string[] = [];
    const stalls: Array<Promise<void>> = [];
    for (const fault of plan) {
      await sleep(fault.atMs - (Date.now() - started));
      const label = fault.kind === 'kill' ? `kill ${fault.worker}` : fault.kind;
      const at = ((Date.now() - started) / 1000).toFixed(1);
      this.options.progress(`${at} s: ${label}`);
      if (fault.kind === 'kill') await this.stack.killAndRestart(fault.worker);
      else if (fault.kind === 'restart-nats') await this.stack.nats.restart();
      else if (fault.kind === 'restart-postgres') await this.stack.pg.restart();
      else stalls.push(this.stallGerty(fault.forMs));
      done.push(`${at} s ${label}`);
    }
    await Promise.all(stalls);
    return done;
  }

  private async stallGerty(forMs: number): Promise<void> {
    const gerty = this.stack.service('gerty');
    gerty.kill('SIGSTOP');
    await sleep(forMs);
    gerty.kill('SIGCONT');
    this.options.progress(`gerty resumed after ${forMs / 1000} s`);
  }

  private publishedMessages(): number {
    let n = 0;
    for (const turn of this.acked.values()) n += turn.messages.length;
    return n;
  }

  /**
   * Waits until the pipeline is idle (no consumer with pending or unacknowledged messages, an
   * empty outbox), runs a patrol for every agent (scene notes become nodes) and waits again.
   * What is still busy at the deadline is a problem.
   */
  private async settle(): Promise<string[]> {
    const deadline = Date.now() + this.options.settleTimeoutMs;
    const idle = async () => (await this.busy()).length === 0;
    await waitFor('the pipeline to catch up', idle, this.options.settleTimeoutMs, 500).catch(() => undefined);
    for (const tenantId of TENANTS)
      for (const agent of AGENTS)
        await callRpc(this.stack.nc, Rpcs.patrolRun, { agent }, { tenantId, timeoutMs: 120_000 }).catch(
          (error: Error) => this.options.progress(`patrol ${tenantId}/${agent} failed: ${error.message}`),
        );
    await waitFor(
      'the pipeline to catch up after the patrols',
      idle,
      Math.max(5000, deadline - Date.now()),
      500,
    ).catch(() => undefined);
    return (await this.busy()).map((what) => `not caught up: ${what}`);
  }

  /** What is still in flight: durable consumers with pending or unacknowledged messages, outbox rows. */
  private async busy(): Promise<string[]> {
    const jsm = await jetstreamManager(this.stack.nc);
    const busy: string[] = [];
    for (const stream of ALL_STREAMS) {
      for await (const consumer of jsm.consumers.list(stream.name)) {
        // Only the durables: a killed retrieval's ordered consumer lingers until its inactivity
        // threshold (5 min) with nobody to read it, by design.
        if (!consumer.config.durable_name) continue;
        if (consumer.num_pending > 0 || consumer.num_ack_pending > 0)
          busy.push(
            `${consumer.name}: ${consumer.num_pending} pending, ${consumer.num_ack_pending} unacknowledged`,
          );
      }
    }
    const admin = await this.stack.reconnectAdmin();
    try {
      const outbox = Number((await admin.query('SELECT count(*) AS n FROM outbox')).rows[0].n);
      if (outbox > 0) busy.push(`outbox: ${outbox} rows`);
    } finally {
      await admin.end();
    }
    return busy;
  }

  /** Published, stored, lost, duplicated (by each turn's messages) and dead letters, with those that do not say why. */
  private async count(admin: Client): Promise<{ counts: ChaosCounts; deadLettersWithoutReason: number }> {
    const published = this.publishedMessages();
    const rows = await admin.query<{ turn_id: string; n: string; positions: string }>(
      `SELECT turn_id, count(*) AS n, count(DISTINCT position) AS positions
         FROM messages GROUP BY conversation_id, turn_id`,
    );
    let stored = 0;
    let found = 0;
    let duplicated = 0;
    for (const row of rows.rows) {
      stored += Number(row.n);
      duplicated += Number(row.n) - Number(row.positions);
      const turn = this.acked.get(row.turn_id);
      if (turn) found += Math.min(Number(row.positions), turn.messages.length);
    }
    const jsm = await jetstreamManager(this.stack.nc);
    const dead = (await jsm.streams.info(Streams.deadLetters.name)).state;
    let deadLettersWithoutReason = 0;
    for (let seq = dead.first_seq; dead.messages > 0 && seq <= dead.last_seq; seq++) {
      const stored = await jsm.streams.getMessage(Streams.deadLetters.name, { seq });
      const letter = decodeMessage(DeadLetterSchema, stored!.data, { strict: false });
      if (!letter.reason.trim()) deadLettersWithoutReason++;
    }
    return {
      counts: { published, stored, lost: published - found, duplicated, deadLetters: dead.messages },
      deadLettersWithoutReason,
    };
  }
}

/** The last lines a process printed, on one line (why it crashed). */
function lastLines(output: string): string {
  return output.trim().split('\n').slice(-3).join(' | ').slice(-600);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
