import { rpcPartitionSubject } from './rpc-partitions';
import { rpcAliasSubscriptions, Rpcs, rpcSubject, rpcSubscription, type RpcSpec } from './rpcs';
import { Subjects } from './subjects';
import {
  ALL_STREAMS,
  Consumers,
  Events,
  Followers,
  OUTBOX_DEAD_LETTERS,
  SERVICE_NAMES,
  Streams,
  WorkItems,
  type Announcement,
  type ConsumerSpec,
  type FollowerSpec,
  type ServiceName,
} from './topology';

/**
 * Who may publish and subscribe to what on an authenticated NATS, derived from the topology
 * (tools/cli renders it into deploy/nats/engram-auth.conf and the NATS Helm values). The services
 * share one account, ENGRAM (their streams live there), each as a user allowed what its consumers,
 * RPCs and announcements need. The agent runtimes of a tenant have an account of their own that
 * imports from ENGRAM only that tenant's turn subject and RPCs, and may publish nothing else.
 */

/** The account of Engram's services and streams. */
export const ENGRAM_ACCOUNT = 'ENGRAM';

/** The operator's user (the engram CLI, tests): everything in ENGRAM. */
export const ADMIN_USER = 'admin';

/** Every user of ENGRAM: one per service, and the operator's. */
export const ENGRAM_USERS: readonly string[] = [...SERVICE_NAMES, ADMIN_USER];

export interface NatsPermissions {
  /** Subjects it may publish to (a request is a publish). */
  readonly publish: readonly string[];
  /** Subjects it may subscribe to. */
  readonly subscribe: readonly string[];
  /** It answers requests: it may publish to the reply subject of each request it received. */
  readonly allowResponses: boolean;
}

/** The environment variable of nats-server that holds a user's password (`ingest` → ENGRAM_NATS_PASSWORD_INGEST). */
export function natsPasswordVariable(user: string): string {
  return `ENGRAM_NATS_PASSWORD_${user.toUpperCase().replace(/-/g, '_')}`;
}

/** A service's inbox prefix: the replies to its requests come under it, so it subscribes to no one else's. */
export function serviceInbox(service: string): string {
  return `_INBOX.${service}`;
}

/** The api edge: it publishes turns for the tenants of its keys, hears heartbeats and key revocations. */
const EDGE: ServiceName = 'api';
/** Who reads every consumer's backlog: the edge's /v1/health and the owner of memory_stats (readQueueStatus). */
const QUEUE_READERS: readonly ServiceName[] = [EDGE, Rpcs.statsGet.owner];
/** Who lists, reads, re-drives and removes dead letters (DeadLetterBox). */
const DEAD_LETTER_BOX: ServiceName = Rpcs.deadLettersRedrive.owner;

const JS_API = '$JS.API';
const RPCS: readonly RpcSpec[] = Object.values<RpcSpec>(Rpcs);
const HANDLERS: ReadonlyArray<{ owner: ServiceName; publishes: readonly Announcement[] }> = [
  ...Object.values<ConsumerSpec>(Consumers),
  ...RPCS,
];

/** The subjects of an announcement, for every tenant. */
function announcementSubject(name: Announcement): string {
  return name in Events
    ? Events[name as keyof typeof Events].subject('*')
    : WorkItems[name as keyof typeof WorkItems].subject('*', '*');
}

/** Services whose handlers announce: each runs an outbox relay whose sweep publishes any writer's rows. */
function announcers(): Set<ServiceName> {
  return new Set(HANDLERS.filter((h) => h.publishes.length > 0).map((h) => h.owner));
}

/** Everything an outbox relay may publish: every announcement of every writer, and the outbox's dead letters. */
function outboxSubjects(): string[] {
  const announced = HANDLERS.flatMap((h) => h.publishes.map(announcementSubject));
  return [...announced, Subjects.deadLetter(OUTBOX_DEAD_LETTERS.stream, OUTBOX_DEAD_LETTERS.consumer)];
}

/** The JetStream API of a durable pull consumer: create or update it, read it, pull from it, acknowledge. */
function consumerApi(spec: ConsumerSpec): string[] {
  const at = `${spec.stream.name}.${spec.durable}`;
  return [
    `${JS_API}.CONSUMER.CREATE.${at}`,
    // nats.js names the filter subject in the create subject when there is one.
    `${JS_API}.CONSUMER.CREATE.${at}.>`,
    `${JS_API}.CONSUMER.INFO.${at}`,
    `${JS_API}.CONSUMER.MSG.NEXT.${at}`,
    `$JS.ACK.${at}.>`,
  ];
}

/** What a consumer's owner publishes besides its announcements: the max-deliveries handler reads the message, dead letters. */
function consumerPublishes(spec: ConsumerSpec): string[] {
  return [
    ...consumerApi(spec),
    `${JS_API}.STREAM.MSG.GET.${spec.stream.name}`,
    Subjects.deadLetter(spec.stream.name, spec.durable),
  ];
}

/**
 * The JetStream API of a follower's ordered consumers, named by nats.js per process (`oc_<nuid>_<n>`,
 * hence `*`): create, read, pull, delete on reset. Ordered consumers take no acks.
 */
function followerApi(spec: FollowerSpec): string[] {
  return orderedConsumerApi(spec.stream.name);
}

/** Ordered consumers of a stream, named by nats.js (`*`): create, read, pull, delete. */
function orderedConsumerApi(stream: string): string[] {
  const at = `${stream}.*`;
  return ['CREATE', 'INFO', 'MSG.NEXT', 'DELETE']
    .map((op) => `${JS_API}.CONSUMER.${op}.${at}`)
    .concat(`${JS_API}.CONSUMER.CREATE.${at}.>`);
}

/**
 * Erase (its RPC's owner): the streams that hold message text — turns purged by subject, a
 * conversation's turns and the dead letters found through ordered consumers and deleted.
 */
function eraserPublishes(): string[] {
  return [
    `${JS_API}.STREAM.PURGE.${Streams.turns.name}`,
    ...[Streams.turns.name, Streams.deadLetters.name].flatMap((stream) => [
      `${JS_API}.STREAM.MSG.GET.${stream}`,
      `${JS_API}.STREAM.MSG.DELETE.${stream}`,
      ...orderedConsumerApi(stream),
    ]),
  ];
}

/** Where an RPC's endpoint listens: its subject, and its partitions when nats-server maps it onto them. */
function servedSubjects(spec: RpcSpec): string[] {
  return [
    rpcSubscription(spec),
    ...rpcAliasSubscriptions(spec),
    ...(spec.partitioned ? [rpcPartitionSubject(spec, '*')] : []),
  ];
}

/** What a service may do on NATS: exactly what its consumers, RPCs, calls and announcements need. */
export function servicePermissions(service: ServiceName): NatsPermissions {
  const consumers = Object.values<ConsumerSpec>(Consumers).filter((c) => c.owner === service);
  const served = RPCS.filter((r) => r.owner === service);
  const publish = [
    // JetStreamServer: every service checks the API and provisions every stream at start.
    `${JS_API}.INFO`,
    ...ALL_STREAMS.flatMap((s) =>
      ['INFO', 'CREATE', 'UPDATE'].map((op) => `${JS_API}.STREAM.${op}.${s.name}`),
    ),
    Subjects.heartbeat(service),
    ...consumers.flatMap(consumerPublishes),
    ...Object.values<FollowerSpec>(Followers)
      .filter((f) => f.owner === service)
      .flatMap(followerApi),
    // A request to a partitioned RPC is checked after nats-server mapped it onto its partition.
    ...RPCS.filter((r) => r.callers.includes(service)).flatMap(servedSubjects),
    ...(announcers().has(service) ? outboxSubjects() : []),
    ...(service === EDGE ? [Subjects.turn('*', '*')] : []),
    ...(QUEUE_READERS.includes(service)
      ? Object.values<ConsumerSpec>(Consumers).map(
          (c) => `${JS_API}.CONSUMER.INFO.${c.stream.name}.${c.durable}`,
        )
      : []),
    ...(service === DEAD_LETTER_BOX ? deadLetterBoxPublishes() : []),
    ...(service === Rpcs.erase.owner ? eraserPublishes() : []),
  ];
  const subscribe = [
    `${serviceInbox(service)}.>`,
    ...consumers.map((c) => Subjects.maxDeliveriesAdvisory(c.stream.name, c.durable)),
    ...served.flatMap(servedSubjects),
    ...(service === EDGE ? [Subjects.heartbeatWildcard, Subjects.apiKeyRevoked] : []),
  ];
  return { publish: unique(publish), subscribe: unique(subscribe), allowResponses: served.length > 0 };
}

/** Reading and removing letters, and publishing a letter's original message again on its subject. */
function deadLetterBoxPublishes(): string[] {
  const name = Streams.deadLetters.name;
  const redriven = ALL_STREAMS.filter((s) => s !== Streams.deadLetters).flatMap((s) => s.subjects);
  return [`${JS_API}.STREAM.MSG.GET.${name}`, `${JS_API}.STREAM.MSG.DELETE.${name}`, ...redriven];
}

/** The operator (CLI, tests): anything in ENGRAM. */
export const ADMIN_PERMISSIONS: NatsPermissions = { publish: ['>'], subscribe: ['>'], allowResponses: false };

/** A user of ENGRAM: a service's permissions, or the operator's. */
export function engramUserPermissions(user: string): NatsPermissions {
  if (user === ADMIN_USER) return ADMIN_PERMISSIONS;
  if (!(SERVICE_NAMES as readonly string[]).includes(user))
    throw new Error(`${user} is no user of ${ENGRAM_ACCOUNT}`);
  return servicePermissions(user as ServiceName);
}

/** The account of a tenant's agent runtimes. */
export function runtimeAccount(tenantId: string): string {
  return `TENANT_${tenantId}`;
}

/**
 * What a runtime of the tenant may request of ENGRAM: publishing its turns (JetStream answers with
 * the ack) and every tenant-scoped RPC, on its own tenant's subjects only. With `*`, every tenant's:
 * what ENGRAM exports.
 */
export function runtimeSubjects(tenantId: string): string[] {
  return [
    Subjects.turn(tenantId, '*'),
    ...RPCS.filter((r) => r.tenantScoped).flatMap((r) => [
      rpcSubject(r, tenantId),
      ...r.aliases.map((alias) => `${alias}.${tenantId}`),
    ]),
  ];
}

/** A runtime user: publish only its tenant's subjects; its inboxes are its account's own. */
export function runtimePermissions(tenantId: string): NatsPermissions {
  return { publish: runtimeSubjects(tenantId), subscribe: ['_INBOX.>'], allowResponses: false };
}

/**
 * Replies a service may send to one request: the answer and the "working" heartbeats before it
 * (a consumer's Gerty call asks for one every 2 s, through GERTY_TIMEOUT_MS of up to an hour).
 */
export const MAX_REPLIES_PER_REQUEST = 2000;

/** Permissions as nats-server's configuration writes them. */
export function natsPermissionsConfig(permissions: NatsPermissions) {
  return {
    publish: { allow: [...permissions.publish] },
    subscribe: { allow: [...permissions.subscribe] },
    ...(permissions.allowResponses && { allow_responses: { max: MAX_REPLIES_PER_REQUEST } }),
  };
}

/**
 * A tenant's runtime account as nats-server's configuration has it (under `accounts`): one user by
 * its nkey (the public key: the seed stays with the runtime) and the imports of the tenant's
 * subjects from ENGRAM.
 */
export function runtimeAccountConfig(tenantId: string, publicKey: string) {
  return {
    users: [{ nkey: publicKey, permissions: natsPermissionsConfig(runtimePermissions(tenantId)) }],
    imports: runtimeSubjects(tenantId).map((subject) => ({ service: { account: ENGRAM_ACCOUNT, subject } })),
  };
}

/** The same account as an entry of the `accounts` map in nats-server's syntax (JSON is valid there). */
export function runtimeAccountBlock(tenantId: string, publicKey: string): string {
  return `${JSON.stringify(runtimeAccount(tenantId))}: ${JSON.stringify(runtimeAccountConfig(tenantId, publicKey), null, 2)}\n`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
