import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import type { Client } from 'pg';
import { ALL_STREAMS, DeadLetterSchema, Rpcs, Streams, Subjects, decodeMessage } from '@engram/contracts';
import { callRpc, RpcError } from '@engram/messaging';
import { sleep, waitFor } from '../free-port';
import { caughtUpSeconds, sampleAckFloors, starvedConsumers, type AckFloorSample } from './ack-floors';
import { chaosTurn, type ChaosTurn } from './chaos-turns';
import { checkConsistency } from './consistency';
import { blame, faultLabel, type FailedCall, type InflictedFault } from './failed-calls';

/** What a workload runs against: the test's own NATS connections and the store as a superuser. */
export interface WorkloadTarget {
  /**
   * Turns are published over the first; searches, context builds and scene notes rotate over all
   * of them (on a NATS cluster, one per node, so requests enter the cluster at every node).
   */
  readonly connections: readonly NatsConnection[];
  /** A superuser connection of its own (one kept open would die with a Postgres restart). */
  connectAdmin(): Promise<Client>;
  /** What the workers' processes acknowledged so far, by durable consumer (WorkerStack.readWork). */
  acknowledged(): Promise<Readonly<Record<string, number>>>;
}

export interface WorkloadOptions {
  /** How long the load runs (and longer, until the faults are over). */
  readonly loadSeconds: number;
  /** Messages published per second, in turns of one to four. */
  readonly messagesPerSecond: number;
  /** Concurrent callers of memory search and context builds during the load. */
  readonly searchers: number;
  /** A scene note for each tenant this often (default 2 s): the patrol's work. */
  readonly sceneIntervalMs?: number;
  /** How long the pipeline may take to catch up after the load before the run counts what is stuck. */
  readonly settleTimeoutMs: number;
  /** Every durable consumer's ack floor is sampled this often (default 30 s), from the start to the checks. */
  readonly ackFloorEveryMs?: number;
  readonly progress: (line: string) => void;
}

/** The counts the issue asks for, printed as a run's last line. */
export interface WorkloadCounts {
  /** Messages in turns JetStream acknowledged. */
  readonly published: number;
  /** Of those, how many are in the transcript. */
  readonly stored: number;
  readonly lost: number;
  /** Rows beyond one per message (the natural key: conversation, turn, position). */
  readonly duplicated: number;
  readonly deadLetters: number;
}

export interface WorkloadReport extends WorkloadCounts {
  /** What the faults did and when, as `inflict` reported it (faultLabel). */
  readonly faults: readonly string[];
  readonly searches: { readonly answered: number; readonly failed: number };
  readonly contextBuilds: { readonly answered: number; readonly failed: number };
  /** Every search and context build that failed, with the fault it is blamed on. */
  readonly failedCalls: readonly FailedCall[];
  readonly scenesAdded: number;
  /** From the end of the load until the pipeline had caught up (or the settle timeout). */
  readonly catchUpSeconds: number;
  /** Each durable consumer's ack floor, pending and unacknowledged counts through the run. */
  readonly ackFloors: readonly AckFloorSample[];
  /** Per durable consumer, seconds from the end of the load until it had no work left (null: never). */
  readonly caughtUpByConsumer: Readonly<Record<string, number | null>>;
  /** Consumers that acknowledged nothing for over a minute while they had work (starvedConsumers); each is also a problem. */
  readonly starved: readonly string[];
  /** What the run broke (empty when it passed): work not caught up, inconsistent artefacts, starved consumers. */
  readonly problems: readonly string[];
}

/** Inflicts a run's faults while the load goes on; resolves with what was done and when, for the report. */
export type Inflict = (startedAt: number) => Promise<InflictedFault[]>;

export const WORKLOAD_TENANTS = ['acme', 'globex', 'initech'] as const;
export const WORKLOAD_AGENTS = ['agent-0', 'agent-1'] as const;
const SEARCH_WORDS = ['coffee', 'Lisbon', 'deadline', 'piano', 'invoice', 'garden', 'Sam', 'birthday'];

/**
 * Sustained ingest (deterministic turns), memory searches, context builds and scene notes while
 * `inflict` breaks things; then the pipeline is left to catch up and the run counts what was
 * published, stored, lost, duplicated and dead-lettered, and checks every derived artefact.
 */
export function runWorkload(
  target: WorkloadTarget,
  options: WorkloadOptions,
  inflict: Inflict,
): Promise<WorkloadReport> {
  return new Workload(target, options).run(inflict);
}

/** One run's load and tallies. */
class Workload {
  private readonly js: JetStreamClient;
  private readonly acked = new Map<string, ChaosTurn>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly searches = { answered: 0, failed: 0 };
  private readonly contextBuilds = { answered: 0, failed: 0 };
  private readonly failures: Array<Omit<FailedCall, 'fault'>> = [];
  private scenesAdded = 0;
  private calls = 0;
  private loadOver = false;
  private faultsOver = false;
  private settled = false;

  constructor(
    private readonly target: WorkloadTarget,
    private readonly options: WorkloadOptions,
  ) {
    this.js = jetstream(target.connections[0]!);
  }

  async run(inflict: Inflict): Promise<WorkloadReport> {
    const started = Date.now();
    const ackFloors = this.sampleAckFloors(started);
    try {
      return await this.loadAndCheck(inflict, started, ackFloors);
    } finally {
      // Whatever failed, the loops end with the run.
      this.loadOver = true;
      this.settled = true;
    }
  }

  private async loadAndCheck(
    inflict: Inflict,
    started: number,
    ackFloors: Promise<AckFloorSample[]>,
  ): Promise<WorkloadReport> {
    const loadMs = this.options.loadSeconds * 1000;
    // An agent speaks before it recalls: a search of a tenant with no memory yet is NOT_FOUND,
    // which no fault causes, so the callers start once every tenant's first turn is stored.
    const callers = this.tenantsStored().then(() =>
      Promise.all([
        ...Array.from({ length: this.options.searchers }, (_, i) => this.searchLoop(i, started)),
        this.sceneLoop(),
      ]),
    );
    // The load goes on until the last fault is over (a restart under load can take longer than planned).
    const faults = inflict(started).finally(() => (this.faultsOver = true));
    await Promise.all([faults, this.publishLoop(started, loadMs)]);
    this.loadOver = true;
    await callers;
    this.options.progress(`load over: ${this.publishedMessages()} messages acknowledged; catching up`);
    const loadOverAt = Date.now();
    const stuck = await this.settle();
    const catchUpSeconds = Math.round((Date.now() - loadOverAt) / 1000);
    this.settled = true;
    const samples = await ackFloors;
    const admin = await this.target.connectAdmin();
    try {
      const { counts, deadLettersWithoutReason } = await this.count(admin);
      const inflicted = await faults;
      const failedCalls = this.failures.map((f) => ({ ...f, fault: nameOf(blame(f.atSeconds, inflicted)) }));
      const starved = starvedConsumers(samples);
      const problems = [
        ...stuck,
        ...(await checkConsistency(admin)),
        ...starved.map((line) => `starved: ${line}`),
      ];
      if (deadLettersWithoutReason > 0)
        problems.push(`dead letters without a reason: ${deadLettersWithoutReason}`);
      return {
        ...counts,
        faults: inflicted.map(faultLabel),
        searches: this.searches,
        contextBuilds: this.contextBuilds,
        failedCalls,
        scenesAdded: this.scenesAdded,
        catchUpSeconds,
        ackFloors: samples,
        caughtUpByConsumer: caughtUpSeconds(samples, Math.round((loadOverAt - started) / 1000)),
        starved,
        problems,
      };
    } finally {
      await admin.end();
    }
  }

  /** Every durable consumer's ack floor, every ackFloorEveryMs until the run is settled (a sample NATS cannot answer is skipped). */
  private async sampleAckFloors(started: number): Promise<AckFloorSample[]> {
    const every = this.options.ackFloorEveryMs ?? 30_000;
    const samples: AckFloorSample[] = [];
    const sample = () =>
      Promise.all([jetstreamManager(this.target.connections[0]!), this.target.acknowledged()])
        .then(([jsm, acknowledged]) =>
          sampleAckFloors(jsm, Math.round((Date.now() - started) / 1000), acknowledged),
        )
        .then(
          (taken) => samples.push(taken),
          () => undefined,
        );
    for (let next = started; !this.settled; await sleep(250)) {
      if (Date.now() < next) continue;
      next += every;
      await sample();
    }
    await sample(); // as the checks begin
    return samples;
  }

  /** The next connection for an RPC: round robin, so every node of a cluster has callers. */
  private caller(): NatsConnection {
    const connections = this.target.connections;
    return connections[this.calls++ % connections.length]!;
  }

  /** Turns at the asked rate for `loadMs` and until the faults are over; each is published until JetStream acknowledges it. */
  private async publishLoop(started: number, loadMs: number): Promise<void> {
    let sent = 0;
    let n = 0;
    while (Date.now() - started < loadMs || !this.faultsOver) {
      const due = Math.floor(((Date.now() - started) / 1000) * this.options.messagesPerSecond);
      while (sent < due && this.inFlight.size < 2000) {
        const turn = chaosTurn(n++, WORKLOAD_TENANTS, WORKLOAD_AGENTS);
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

  /**
   * Memory search and context builds, one after the other, until the load ends. A failure is
   * noted with its time and code, and the caller backs off as the SDK does (200 ms doubling to
   * 2 s until a call of that kind is answered): a restart costs each caller a few failures, not
   * one per 100 ms.
   */
  private async searchLoop(index: number, started: number): Promise<void> {
    const failuresInARow = { search: 0, 'context build': 0 };
    for (let i = 0; !this.loadOver; i++) {
      const tenantId = WORKLOAD_TENANTS[(index + i) % WORKLOAD_TENANTS.length]!;
      const agent = WORKLOAD_AGENTS[i % WORKLOAD_AGENTS.length]!;
      const word = SEARCH_WORDS[(index * 7 + i) % SEARCH_WORDS.length]!;
      const contextBuild = i % 2 === 1;
      const call = contextBuild ? 'context build' : 'search';
      const tally = contextBuild ? this.contextBuilds : this.searches;
      try {
        if (contextBuild)
          await callRpc(
            this.caller(),
            Rpcs.contextBuild,
            { agent, sessionKey: `session-${i % 4}`, currentMessage: `what about the ${word}?` },
            { tenantId, timeoutMs: 5000 },
          );
        else
          await callRpc(this.caller(), Rpcs.search, { query: word, topK: 5 }, { tenantId, timeoutMs: 5000 });
        tally.answered++;
        failuresInARow[call] = 0;
      } catch (error) {
        tally.failed++;
        this.failures.push({
          call,
          atSeconds: (Date.now() - started) / 1000,
          code: error instanceof RpcError ? error.code : error instanceof Error ? error.name : 'unknown',
        });
        await sleep(Math.min(2000, 200 * 2 ** failuresInARow[call]++));
      }
      await sleep(10);
    }
  }

  /** Resolves once every workload tenant exists (its first turn stored), or the load is over. */
  private async tenantsStored(): Promise<void> {
    const admin = await this.target.connectAdmin();
    try {
      await waitFor(
        'every tenant stored',
        async () =>
          this.loadOver ||
          (
            await admin.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM tenants WHERE tenant_id = ANY($1::text[])`,
              [WORKLOAD_TENANTS],
            )
          ).rows[0]!.n === WORKLOAD_TENANTS.length,
        60_000,
      );
    } finally {
      await admin.end();
    }
  }

  /** A scene for each tenant's agents every interval: the patrol makes each note a node. */
  private async sceneLoop(): Promise<void> {
    for (let i = 0; !this.loadOver; i++) {
      for (const tenantId of WORKLOAD_TENANTS) {
        const scene = JSON.stringify({
          action: `met Sam about the ${SEARCH_WORDS[i % SEARCH_WORDS.length]}`,
          actors: ['Sam'],
        });
        await callRpc(
          this.caller(),
          Rpcs.beingScenesAdd,
          { agent: WORKLOAD_AGENTS[i % WORKLOAD_AGENTS.length]!, scene },
          { tenantId, timeoutMs: 5000 },
        ).then(
          () => this.scenesAdded++,
          () => undefined,
        );
      }
      await sleep(this.options.sceneIntervalMs ?? 2000);
    }
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
    let reportedAt = Date.now();
    const idle = async () => {
      const busy = await this.busy();
      // A long catch-up says where its backlog is, every half minute.
      if (busy.length > 0 && Date.now() - reportedAt >= 30_000) {
        reportedAt = Date.now();
        this.options.progress(`catching up: ${busy.join('; ')}`);
      }
      return busy.length === 0;
    };
    await waitFor('the pipeline to catch up', idle, this.options.settleTimeoutMs, 500).catch(() => undefined);
    for (const tenantId of WORKLOAD_TENANTS)
      for (const agent of WORKLOAD_AGENTS) await this.patrol(tenantId, agent);
    await waitFor(
      'the pipeline to catch up after the patrols',
      idle,
      Math.max(5000, deadline - Date.now()),
      500,
    ).catch(() => undefined);
    return (await this.busy()).map((what) => `not caught up: ${what}`);
  }

  /**
   * A whole patrol of the agent now. A run that resumes what a killed patrol left finishes only
   * its remaining steps (scene notes written since its scenes step wait), so it is asked again.
   */
  private async patrol(tenantId: string, agent: string): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const report = await callRpc(
        this.caller(),
        Rpcs.patrolRun,
        { agent },
        { tenantId, timeoutMs: 120_000 },
      ).catch((error: Error) => {
        this.options.progress(`patrol ${tenantId}/${agent} failed: ${error.message}`);
        return null;
      });
      if (!report?.resumed) return;
    }
  }

  /** What is still in flight: durable consumers with pending or unacknowledged messages, outbox rows. */
  private async busy(): Promise<string[]> {
    const jsm = await jetstreamManager(this.target.connections[0]!);
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
    const admin = await this.target.connectAdmin();
    try {
      const outbox = Number((await admin.query('SELECT count(*) AS n FROM outbox')).rows[0].n);
      if (outbox > 0) busy.push(`outbox: ${outbox} rows`);
    } finally {
      await admin.end();
    }
    return busy;
  }

  /** Published, stored, lost, duplicated (by each turn's messages) and dead letters, with those that do not say why. */
  private async count(admin: Client): Promise<{ counts: WorkloadCounts; deadLettersWithoutReason: number }> {
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
    const jsm = await jetstreamManager(this.target.connections[0]!);
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

function nameOf(fault: InflictedFault | null): string | null {
  return fault && faultLabel(fault);
}
