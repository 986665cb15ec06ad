import { resolve } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { waitFor } from './free-port';
import { startNatsCluster, type NatsClusterHandle } from './nats-cluster';

const NATS_CONFIG = resolve(__dirname, '../../../deploy/nats/engram.conf');

/**
 * The cluster the scale-out test runs on: three nats-server processes with one meta leader, an R3
 * stream that keeps taking and serving messages when its leader node is killed, and the node back.
 */
describe('startNatsCluster (three local nats-server processes)', () => {
  let cluster: NatsClusterHandle;
  let nc: NatsConnection;

  beforeAll(async () => {
    cluster = await startNatsCluster(3, { configFile: NATS_CONFIG });
    nc = await connect({ servers: cluster.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  });

  afterAll(async () => {
    await nc?.close();
    await cluster?.shutdown();
  });

  it('replicates a stream on all three nodes and loses no acknowledged message when its leader is killed', async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'R3', subjects: ['r3.>'], num_replicas: 3 });
    const before = await jsm.streams.info('R3');
    expect(before.cluster?.leader).toMatch(/^n[012]$/);
    expect(before.cluster?.replicas).toHaveLength(2);

    const js = jetstream(nc);
    for (let i = 0; i < 10; i++) await js.publish(`r3.${i}`, `m${i}`, { msgID: `m${i}` });
    const leader = cluster.indexOf(before.cluster!.leader!);
    await cluster.stop(leader, 'SIGKILL');
    // Until a new leader is elected a publish goes unanswered: the same msg id again, as a runtime would.
    for (let i = 10; i < 20; i++)
      await waitFor(
        `m${i} acknowledged`,
        async () => !!(await js.publish(`r3.${i}`, `m${i}`, { msgID: `m${i}`, timeout: 1000 })),
        20_000,
      );

    const after = await jsm.streams.info('R3');
    expect(after.cluster?.leader).not.toBe(before.cluster?.leader);
    expect(after.state.messages).toBe(20);

    await cluster.start(leader);
    expect(await cluster.metaLeader()).toBeGreaterThanOrEqual(0);
  });

  it('applies the subject mappings of the configuration file on every node', async () => {
    for (let i = 0; i < cluster.nodes.length; i++) {
      const own = await connect({ servers: cluster.urlsFrom(i)[0]! });
      try {
        const mapped = own.subscribe('mem.rpcp.search.*.acme', { max: 1 });
        await own.flush();
        own.publish('mem.rpc.search.acme', 'x');
        for await (const msg of mapped) expect(msg.subject).toMatch(/^mem\.rpcp\.search\.\d+\.acme$/);
      } finally {
        await own.close();
      }
    }
  });
});
