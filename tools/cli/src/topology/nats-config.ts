import { Document } from 'yaml';
import { natsMappingsBlock, RPC_PARTITIONS, rpcPartitionMappings } from '@engram/contracts';

/** The nats-server configuration of one host (docker-compose.yml, scripts/provision.sh, tests). */
export const NATS_CONFIG = 'deploy/nats/engram.conf';
/** Values for the official NATS Helm chart on Kubernetes. */
export const NATS_HELM_VALUES = 'deploy/k8s/nats/values.yaml';

const GENERATED = 'Generated from libs/contracts by `npm run docs:topology`: do not edit.';

/** What both files say about the mappings: which RPCs, how many partitions, who must agree. */
function mappingsComment(partitions: number): string[] {
  return [
    `Partitioned RPCs (libs/contracts/src/rpc-partitions.ts) are mapped onto ${partitions} partitions of`,
    'their tenant token; each replica of their service (RPC_PARTITIONS must be the same number)',
    'answers the partitions it serves.',
  ];
}

/** A nats-server configuration file with the mappings; JetStream and ports come from the command line. */
export function renderNatsConfig(partitions: number = RPC_PARTITIONS): string {
  return [
    `# ${GENERATED}`,
    ...mappingsComment(partitions).map((line) => `# ${line}`),
    '#   nats-server -c deploy/nats/engram.conf -js -sd <store dir>',
    natsMappingsBlock(partitions),
    '',
  ].join('\n');
}

/** A nats-server's starting point: JetStream keeps recent messages in memory, hence the 2 GiB. */
const NATS_RESOURCES = { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2', memory: '2Gi' } };
/** The config reloader and nats-box: idle almost all the time (a new object each, so no YAML alias). */
const sidecarResources = () => ({
  requests: { cpu: '10m', memory: '32Mi' },
  limits: { cpu: '100m', memory: '64Mi' },
});

/** Helm values for the official NATS chart (1.x): a 3-node JetStream cluster with the mappings. */
export function renderNatsHelmValues(partitions: number = RPC_PARTITIONS): string {
  const doc = new Document({
    config: {
      cluster: { enabled: true, replicas: 3 },
      jetstream: { enabled: true, fileStore: { pvc: { size: '10Gi' } } },
      merge: { mappings: rpcPartitionMappings(partitions) },
    },
    // The chart's own probes (startup, readiness and liveness on /healthz) stay on; `merge`
    // works on both chart 1.x and 2.x, unlike `container.resources`.
    // GOMEMLIMIT below the memory limit: the Go runtime collects before the kernel kills it.
    container: { env: { GOMEMLIMIT: '1800MiB' }, merge: { resources: NATS_RESOURCES } },
    reloader: { merge: { resources: sidecarResources() } },
    natsBox: { container: { merge: { resources: sidecarResources() } } },
    // One server at a time may be drained: the R3 streams keep their quorum of two.
    podDisruptionBudget: { enabled: true },
  });
  doc.commentBefore = [
    ` ${GENERATED}`,
    ' Values for the official NATS Helm chart (1.x, https://github.com/nats-io/k8s): a 3-node',
    ' JetStream cluster (set NATS_STREAM_REPLICAS=3) with Engram’s subject mappings, resources',
    ' for every container and the chart’s PodDisruptionBudget (one server down at a time).',
    ...mappingsComment(partitions).map((line) => ` ${line}`),
    '   helm install nats nats/nats --namespace nats --create-namespace -f deploy/k8s/nats/values.yaml',
  ].join('\n');
  return doc.toString({ lineWidth: 0 });
}
