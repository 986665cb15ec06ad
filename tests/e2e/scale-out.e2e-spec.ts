import { resolve } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type ConsumerInfo, type StreamInfo } from '@nats-io/jetstream';
import { ALL_STREAMS, Consumers, RPC_PARTITIONS, Rpcs, Streams, type ServiceName } from '@engram/contracts';
import {
  CHAOS_WORKERS,
  WorkerStack,
  connectEngramAdmin,
  handled,
  migrateEngramDatabase,
  runWorkload,
  scrapeWork,
  sleep,
  waitFor,
  faultLabel,
  startNatsCluster,
  startPostgresServer,
  type NatsClusterHandle,
  type PostgresServerHandle,
  type ChaosWorker,
  type InflictedFault,
  type ReplicaWork,
  type WorkloadReport,
} from '@engram/testing';

const NATS_CONFIG = resolve(__dirname, '../../deploy/nats/engram.conf');
const NODES = 3;
const REPLICAS = 2;
const LOAD_SECONDS = 20;
const MESSAGES_PER_SECOND = 100;
/**
 * Into the load: one replica of each worker is SIGKILLed from 5 s on, one by one, each once its
 * metrics show it took part (at 13 s whatever they show); then the TURNS leader's NATS node.
 */
const REPLICAS_LOST_FROM_MS = 5_000;
const REPLICAS_LOST_BY_MS = 13_000;
const REPLICA_KILL_SPACING_MS = 300;
const NODE_LOST_AT_MS = 14_000;

/** The work the load gives each worker: its durable consumers, and the RPCs the load and the other workers call. */
const WORK_OF: Record<ChaosWorker, readonly string[]> = {
  ingest: consumersOf('ingest'),
  embedder: consumersOf('embedder'),
  compactor: consumersOf('compactor'),
  patrol: [Rpcs.beingScenesAdd.subject, Rpcs.patrolRun.subject],
  retrieval: [Rpcs.search.subject, ...consumersOf('retrieval')],
  'context-builder': [Rpcs.contextBuild.subject],
  gerty: [Rpcs.gertyEmbed.subject, Rpcs.gertyComplete.subject],
};

const progress = (line: string) => process.stderr.write(`scale-out  ${line}\n`);

/**
 * Scale-out as deployed (deploy/README.md): a 3-node JetStream cluster with every stream on 3
 * replicas, and 2 processes of every worker, each given all three node URLs; retrieval's 2 are
 * partitioned as the StatefulSet is (RPC_PARTITIONS 12, RPC_REPLICAS 2, the mappings on every
 * node). Under turns, searches, context builds and scene notes, one replica of each worker is
 * SIGKILLed and then the node that leads TURNS, none restarted. Once the durable consumers have
 * caught up, every published message is stored once, every derived artefact is consistent, and
 * every replica — the killed ones before they died — did part of its work, by its own /metrics.
 */
describe('scale-out: 3 NATS nodes, 2 replicas of every worker, a node and a replica of each lost mid-flight', () => {
  let cluster: NatsClusterHandle;
  let pg: PostgresServerHandle;
  let workers: WorkerStack;
  /** One connection to each node, the first node first: requests enter the cluster at every node (each maps searches itself). */
  const connections: NatsConnection[] = [];
  let streams: StreamInfo[] = [];
  const consumers: ConsumerInfo[] = [];
  let report: WorkloadReport;
  /** By `worker/replica`: the killed replicas' work just before the kill, the others' at the end. */
  const work = new Map<string, ReplicaWork>();
  const killed = new Set<string>();
  let seconds = 0;

  beforeAll(async () => {
    const started = Date.now();
    [cluster, pg] = await Promise.all([
      startNatsCluster(NODES, { configFile: NATS_CONFIG }),
      startPostgresServer(),
    ]);
    const databaseUrl = await migrateEngramDatabase(pg);
    workers = await WorkerStack.start({
      env: {
        NATS_URL: cluster.url,
        NATS_STREAM_REPLICAS: String(NODES),
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        RETRY_BASE_DELAY_MS: '200',
        RETRY_MAX_DELAY_MS: '2000',
      },
      replicas: REPLICAS,
      replicaEnv: (worker, replica): Record<string, string> =>
        worker === 'retrieval'
          ? {
              RPC_PARTITIONS: String(RPC_PARTITIONS),
              RPC_REPLICAS: String(REPLICAS),
              RPC_REPLICA: String(replica),
            }
          : {},
      progress,
    });
    for (let node = 0; node < NODES; node++)
      connections.push(
        await connect({
          servers: cluster.urlsFrom(node),
          noRandomize: true,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 250,
        }),
      );
    const jsm = await jetstreamManager(connections[0]!);
    streams = await Promise.all(ALL_STREAMS.map((stream) => jsm.streams.info(stream.name)));
    for (const stream of ALL_STREAMS)
      for await (const consumer of jsm.consumers.list(stream.name))
        if (consumer.config.durable_name) consumers.push(consumer);
    for (const retry of workers.startRetries) progress(`started again: ${retry}`);
    progress(`stack up after ${((Date.now() - started) / 1000).toFixed(1)} s`);

    report = await runWorkload(
      { connections, connectAdmin: () => connectEngramAdmin(pg), acknowledged: () => workers.readWork() },
      {
        loadSeconds: LOAD_SECONDS,
        messagesPerSecond: MESSAGES_PER_SECOND,
        searchers: 2,
        sceneIntervalMs: 1000,
        settleTimeoutMs: 120_000,
        progress,
      },
      (loadStarted) => loseAReplicaOfEachWorkerAndANode(loadStarted),
    );
    for (const worker of CHAOS_WORKERS)
      for (const [replica, service] of workers.replicas(worker).entries())
        if (!killed.has(`${worker}/${replica}`)) work.set(`${worker}/${replica}`, await scrapeWork(service));
    seconds = Math.round((Date.now() - started) / 1000);
    const { published, stored, lost, duplicated, deadLetters, catchUpSeconds } = report;
    for (const [replica, w] of work) progress(`${replica}: ${JSON.stringify(w)}`);
    progress(
      JSON.stringify({
        published,
        stored,
        lost,
        duplicated,
        deadLetters,
        searches: report.searches.answered,
        contextBuilds: report.contextBuilds.answered,
        handled: handledBy(),
        startRetries: workers.startRetries.length,
        catchUpSeconds,
        seconds,
      }),
    );
    if (report.problems.length > 0 || workers.crashes.length > 0) progress(workers.outputs());
  }, 600_000);

  afterAll(async () => {
    await workers?.stop();
    for (const nc of connections) await nc.close().catch(() => undefined);
    await cluster?.shutdown();
    await pg?.stop();
  });

  /** By `worker/replica`: how much of its worker's work (WORK_OF) it handled. */
  function handledBy(): Record<string, number> {
    return Object.fromEntries(
      [...work].map(([replica, w]) => [replica, handled(w, WORK_OF[replica.split('/')[0] as ChaosWorker])]),
    );
  }

  /**
   * One replica of each worker SIGKILLed (alternately the first and the second), not restarted,
   * each once it has done some of its work (a replica killed before it took part would prove
   * nothing); then the node that leads TURNS.
   */
  async function loseAReplicaOfEachWorkerAndANode(loadStarted: number): Promise<InflictedFault[]> {
    const done: InflictedFault[] = [];
    const note = (what: string) => {
      const at = (Date.now() - loadStarted) / 1000;
      done.push({ what, fromSeconds: at, toSeconds: at });
      progress(faultLabel(done.at(-1)!));
    };
    await sleep(REPLICAS_LOST_FROM_MS - (Date.now() - loadStarted));
    for (const [i, worker] of CHAOS_WORKERS.entries()) {
      const replica = i % REPLICAS;
      const victim = workers.service(worker, replica);
      const tookPart = async () => handled(await scrapeWork(victim), WORK_OF[worker]) > 0;
      const left = REPLICAS_LOST_BY_MS - (Date.now() - loadStarted);
      await waitFor(`${worker}/${replica} to take part`, tookPart, left, 250).catch(() => undefined);
      // Its last words: a SIGKILLed process's counters die with it.
      work.set(`${worker}/${replica}`, await scrapeWork(victim));
      await workers.kill(worker, replica);
      killed.add(`${worker}/${replica}`);
      note(`SIGKILL ${worker}/${replica}`);
      await sleep(REPLICA_KILL_SPACING_MS);
    }
    await sleep(NODE_LOST_AT_MS - (Date.now() - loadStarted));
    const jsm = await jetstreamManager(connections[1]!);
    const leader = cluster.indexOf((await jsm.streams.info(Streams.turns.name)).cluster!.leader!);
    const metaLeader = await cluster.metaLeader();
    await cluster.stop(leader, 'SIGKILL');
    note(
      `SIGKILL nats ${cluster.nodes[leader]!.name} (TURNS leader${leader === metaLeader ? ', meta leader' : ''})`,
    );
    return done;
  }

  it('replicates every stream and durable consumer on the three nodes', () => {
    expect(streams.map((s) => s.config.name).sort()).toEqual(ALL_STREAMS.map((s) => s.name).sort());
    for (const info of [...streams, ...consumers]) {
      expect(info.cluster?.leader).toMatch(/^n[0-2]$/);
      expect(info.cluster?.replicas).toHaveLength(NODES - 1);
    }
    expect(consumers.length).toBeGreaterThan(0);
  });

  it('lost a NATS node and one replica of each worker while the load ran', () => {
    expect(report.faults.filter((f) => / SIGKILL nats /.test(f))).toHaveLength(1);
    expect(killed.size).toBe(CHAOS_WORKERS.length);
    expect(report.published).toBeGreaterThan(LOAD_SECONDS * MESSAGES_PER_SECOND * 0.9);
    expect(report.searches.answered).toBeGreaterThan(0);
    expect(report.contextBuilds.answered).toBeGreaterThan(0);
  });

  it('stores every published message exactly once', () => {
    expect({ lost: report.lost, duplicated: report.duplicated }).toEqual({ lost: 0, duplicated: 0 });
    expect(report.stored).toBe(report.published);
  });

  it('leaves every derived artefact consistent, no consumer behind, no dead letter without a reason, no crash', () => {
    expect([...report.problems, ...workers.crashes]).toEqual([]);
  });

  it('had every replica of every worker do part of its work, by its own metrics', () => {
    const idle = Object.entries(handledBy()).filter(([, n]) => n === 0);
    expect(work.size).toBe(CHAOS_WORKERS.length * REPLICAS);
    expect(idle).toEqual([]);
  });

  it('had every search mapped onto a partition by whichever node took it', () => {
    for (const replica of workers.replicas('retrieval'))
      expect(replica.output()).not.toContain('arrived unmapped');
  });
});

/** The durable consumers a service runs (topology.ts). */
function consumersOf(owner: ServiceName): string[] {
  return Object.values(Consumers)
    .filter((consumer) => consumer.owner === owner)
    .map((consumer) => consumer.durable);
}
