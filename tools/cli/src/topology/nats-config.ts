import { Document } from 'yaml';
import {
  ENGRAM_ACCOUNT,
  ENGRAM_USERS,
  engramUserPermissions,
  natsMappingsBlock,
  natsPasswordVariable,
  natsPermissionsConfig,
  RPC_PARTITIONS,
  rpcPartitionMappings,
  runtimeAccount,
  runtimeAccountConfig,
  runtimeSubjects,
} from '@engram/contracts';

/** The nats-server configuration of one host without authentication (scripts/provision.sh, `npm start`, tests). */
export const NATS_CONFIG = 'deploy/nats/engram.conf';
/** The same with authentication: a user per service, an account per tenant's runtimes (docker-compose.yml). */
export const NATS_AUTH_CONFIG = 'deploy/nats/engram-auth.conf';
/** The tenants' runtime accounts, included by NATS_AUTH_CONFIG: the operator's file, never generated. */
export const NATS_RUNTIMES = 'deploy/nats/runtimes.conf';
/** Values for the official NATS Helm chart on Kubernetes. */
export const NATS_HELM_VALUES = 'deploy/k8s/nats/values.yaml';
/** The Secret with a password per user of ENGRAM (keys: the user names), in the namespaces of NATS and Engram. */
export const NATS_SECRET = 'engram-nats';

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

/** A reference to an environment variable of nats-server, written bare (`$NAME`) in its configuration. */
class EnvReference {
  constructor(readonly name: string) {}
}

/** A value in nats-server's configuration syntax: JSON, with environment references bare; one list item a line. */
function confValue(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (value instanceof EnvReference) return `$${value.name}`;
  if (Array.isArray(value))
    return value.length === 0
      ? '[]'
      : `[\n${value.map((v) => inner + confValue(v, inner)).join('\n')}\n${indent}]`;
  if (value !== null && typeof value === 'object')
    return `{\n${Object.entries(value)
      .map(([key, v]) => `${inner}${JSON.stringify(key)}: ${confValue(v, inner)}`)
      .join('\n')}\n${indent}}`;
  return JSON.stringify(value);
}

/**
 * The services' account: JetStream, a user per service (and the operator's `admin`) with the
 * permissions derived from the topology, the partition mappings, and what runtimes may import.
 * `password` says how a user's password is referenced (an environment variable of nats-server).
 */
function engramAccount(password: (user: string) => unknown, partitions: number) {
  return {
    jetstream: 'enabled',
    users: ENGRAM_USERS.map((user) => ({
      user,
      password: password(user),
      permissions: natsPermissionsConfig(engramUserPermissions(user)),
    })),
    mappings: rpcPartitionMappings(partitions),
    // Every tenant's turn subject and RPCs; a runtime account imports its own tenant's.
    exports: runtimeSubjects('*').map((subject) => ({ service: subject })),
  };
}

/** What the authenticated configuration says of itself (both the file and the Helm values). */
function authComment(): string[] {
  return [
    `Authenticated: the services share the account ${ENGRAM_ACCOUNT}, each as its own user (NATS_USER is the`,
    'service’s name, NATS_PASSWORD the password in nats-server’s ENGRAM_NATS_PASSWORD_<NAME>) allowed only',
    'what its consumers, RPCs and announcements need (libs/contracts/src/nats-permissions.ts); `admin` is',
    'the operator’s (the engram CLI). The agent runtimes of a tenant have an account of their own that can',
    'publish the tenant’s turns and request its RPCs, nothing else: `engram nats-user --tenant <tenant>`.',
  ];
}

/** nats-server's configuration with authentication; runtime accounts come from runtimes.conf beside it. */
export function renderNatsAuthConfig(partitions: number = RPC_PARTITIONS): string {
  const account = engramAccount((user) => new EnvReference(natsPasswordVariable(user)), partitions);
  return [
    `# ${GENERATED}`,
    ...authComment().map((line) => `# ${line}`),
    ...mappingsComment(partitions).map((line) => `# ${line}`),
    '#   ENGRAM_NATS_PASSWORD_INGEST=… (one per user) nats-server -c deploy/nats/engram-auth.conf -js -sd <store dir>',
    'accounts: {',
    `  ${JSON.stringify(ENGRAM_ACCOUNT)}: ${confValue(account, '  ')}`,
    '  # The tenants’ runtime accounts: `engram nats-user --tenant <tenant> >> deploy/nats/runtimes.conf`.',
    '  include "runtimes.conf"',
    '}',
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
      // `<< $NAME >>` is the chart's way to write a bare environment reference into nats.conf.
      merge: {
        accounts: {
          [ENGRAM_ACCOUNT]: engramAccount((user) => `<< $${natsPasswordVariable(user)} >>`, partitions),
        },
      },
    },
    // The chart's own probes (startup, readiness and liveness on /healthz) stay on; `merge`
    // works on both chart 1.x and 2.x, unlike `container.resources`.
    // GOMEMLIMIT below the memory limit: the Go runtime collects before the kernel kills it.
    // The users' passwords come from the Secret engram-nats (a key per user) in the NATS namespace.
    container: {
      env: {
        GOMEMLIMIT: '1800MiB',
        ...Object.fromEntries(
          ENGRAM_USERS.map((user) => [
            natsPasswordVariable(user),
            { valueFrom: { secretKeyRef: { name: NATS_SECRET, key: user } } },
          ]),
        ),
      },
      merge: { resources: NATS_RESOURCES },
    },
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
    ...authComment().map((line) => ` ${line}`),
    ' A tenant’s runtime account is a values file of its own: `engram nats-user --tenant <tenant> --helm`.',
    ...mappingsComment(partitions).map((line) => ` ${line}`),
    '   helm install nats nats/nats --namespace nats --create-namespace -f deploy/k8s/nats/values.yaml',
  ].join('\n');
  return doc.toString({ lineWidth: 0 });
}

/**
 * A tenant's runtime account as Helm values for the NATS chart (a file of its own beside
 * values.yaml: Helm merges the map of accounts).
 */
export function renderRuntimeAccountValues(tenantId: string, publicKey: string): string {
  const doc = new Document({
    config: {
      merge: { accounts: { [runtimeAccount(tenantId)]: runtimeAccountConfig(tenantId, publicKey) } },
    },
  });
  doc.commentBefore = ` The agent runtimes of tenant ${tenantId}: helm upgrade … -f deploy/k8s/nats/values.yaml -f <this file>`;
  return doc.toString({ lineWidth: 0 });
}
