import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { freePort, waitFor } from './free-port';
import { spawnServer, type NatsServerProcess } from './nats-server';

/** One node of a test cluster: its server_name, client URL and ports. */
export interface NatsClusterNode {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  /** The monitoring port (/jsz, /varz). */
  readonly httpPort: number;
  readonly clusterPort: number;
}

export interface NatsClusterHandle {
  readonly nodes: readonly NatsClusterNode[];
  /** Every node's client URL, comma-separated: NATS_URL for a service. */
  readonly url: string;
  /** The URLs with `node`'s first, for a client that should connect to that node (with `noRandomize`). */
  urlsFrom(node: number): string[];
  /** Stops one node (SIGTERM: a clean shutdown; SIGKILL: a crash); the others keep the quorum. */
  stop(node: number, signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts a stopped node again on its ports and store, and waits until the cluster has a meta leader. */
  start(node: number): Promise<void>;
  /** The index of the JetStream meta leader, as the running nodes report it. */
  metaLeader(): Promise<number>;
  /** The index of the node whose server_name is `name` (a stream's `cluster.leader`). */
  indexOf(name: string): number;
  /** Stops every node and removes their stores. */
  shutdown(): Promise<void>;
}

export interface NatsClusterOptions {
  /** A nats-server configuration fragment every node reads too (deploy/nats/engram.conf: the subject mappings). */
  readonly configFile?: string;
}

interface MetaCluster {
  readonly leader?: string;
  readonly cluster_size?: number;
  readonly replicas?: ReadonlyArray<{ readonly name: string; readonly current: boolean }>;
}

/**
 * `size` private nats-server processes routed into one JetStream cluster, each on free ports
 * with its own store and server_name (`n0`, `n1` …), its configuration written to a temp file.
 * Returns once a meta leader is elected, sees every other node current, and answers
 * `$JS.API.INFO`, so streams with `size` replicas can be created at once.
 */
export async function startNatsCluster(
  size: number,
  options: NatsClusterOptions = {},
): Promise<NatsClusterHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-nats-cluster-'));
  const nodes: NatsClusterNode[] = [];
  for (let i = 0; i < size; i++) {
    const [port, httpPort, clusterPort] = [await freePort(), await freePort(), await freePort()];
    nodes.push({ name: `n${i}`, url: `nats://127.0.0.1:${port}`, port, httpPort, clusterPort });
  }
  const extra = options.configFile ? readFileSync(options.configFile, 'utf8') : '';
  const configs = nodes.map((node) => {
    const file = join(dir, `${node.name}.conf`);
    writeFileSync(file, nodeConfig(node, nodes, join(dir, node.name), extra));
    return file;
  });
  const running: Array<NatsServerProcess | undefined> = [];
  const spawnNode = async (i: number) =>
    (running[i] = await spawnServer(['-c', configs[i]!], nodes[i]!.port));
  const runningNodes = () => nodes.filter((_, i) => running[i]);

  const handle: NatsClusterHandle = {
    nodes,
    url: nodes.map((n) => n.url).join(','),
    urlsFrom: (node) => [...nodes.slice(node), ...nodes.slice(0, node)].map((n) => n.url),
    async stop(node, signal = 'SIGTERM') {
      const server = running[node];
      running[node] = undefined;
      await server?.stop(signal);
    },
    async start(node) {
      await spawnNode(node);
      await waitForMetaLeader(runningNodes());
    },
    async metaLeader() {
      const leader = (await metaCluster(runningNodes()[0]!)).leader;
      const index = nodes.findIndex((n) => n.name === leader);
      if (index < 0) throw new Error(`no JetStream meta leader (reported: ${leader ?? 'none'})`);
      return index;
    },
    indexOf(name) {
      const index = nodes.findIndex((n) => n.name === name);
      if (index < 0) throw new Error(`${name} is not a node of this cluster`);
      return index;
    },
    async shutdown() {
      await Promise.all(running.map((server) => server?.stop()));
      running.length = 0;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await Promise.all(nodes.map((_, i) => spawnNode(i)));
    await waitForMetaLeader(nodes);
    return handle;
  } catch (error) {
    await handle.shutdown();
    throw error;
  }
}

/** A node's configuration: client, monitoring and route listeners on loopback, routes to every other node. */
function nodeConfig(
  node: NatsClusterNode,
  nodes: readonly NatsClusterNode[],
  storeDir: string,
  extra: string,
): string {
  const routes = nodes
    .filter((other) => other !== node)
    .map((other) => `nats-route://127.0.0.1:${other.clusterPort}`);
  return [
    `server_name: ${node.name}`,
    `listen: 127.0.0.1:${node.port}`,
    `http: 127.0.0.1:${node.httpPort}`,
    `jetstream { store_dir: ${JSON.stringify(storeDir)} }`,
    'cluster {',
    '  name: engram-test',
    `  listen: 127.0.0.1:${node.clusterPort}`,
    `  routes: [${routes.map((r) => JSON.stringify(r)).join(', ')}]`,
    '}',
    extra,
  ].join('\n');
}

/** Every running node names the same meta leader, which sees the others current, and JetStream answers. */
async function waitForMetaLeader(running: readonly NatsClusterNode[]): Promise<void> {
  const agreed = async () => {
    const views = await Promise.all(running.map(metaCluster));
    const leader = views[0]?.leader;
    if (!leader || views.some((view) => view.leader !== leader)) return false;
    const leaderView = views[running.findIndex((n) => n.name === leader)];
    const current = (leaderView?.replicas ?? []).filter((peer) => peer.current);
    return current.length >= running.length - 1;
  };
  await waitFor('the JetStream meta leader', agreed, 30_000, 100);
  const nc = await connect({ servers: running.map((n) => n.url) });
  try {
    await waitFor(
      '$JS.API.INFO to answer',
      async () => {
        await (await jetstreamManager(nc)).getAccountInfo();
        return true;
      },
      30_000,
      100,
    );
  } finally {
    await nc.close();
  }
}

/** The meta group as one node sees it (its /jsz). */
async function metaCluster(node: NatsClusterNode): Promise<MetaCluster> {
  const response = await fetch(`http://127.0.0.1:${node.httpPort}/jsz`);
  const body = (await response.json()) as { meta_cluster?: MetaCluster };
  return body.meta_cluster ?? {};
}
