import {
  ENGRAM_ACCOUNT,
  natsPasswordVariable,
  runtimeAccount,
  runtimeAccountBlock,
  runtimePermissions,
  runtimeSubjects,
  servicePermissions,
} from './nats-permissions';
import { rpcPartitionSubject } from './rpc-partitions';
import { Rpcs, rpcSubject, type RpcSpec } from './rpcs';
import { Subjects, subjectMatches } from './subjects';
import {
  Consumers,
  Followers,
  SERVICE_NAMES,
  Streams,
  type ConsumerSpec,
  type FollowerSpec,
  type StreamSpec,
} from './topology';

/** The streams that hold message text, which erase reads. */
const ERASED_STREAMS: readonly StreamSpec[] = [Streams.turns, Streams.deadLetters];

/** The services whose permissions let them publish (or subscribe to) a subject. */
const publishers = (subject: string) =>
  SERVICE_NAMES.filter((s) => servicePermissions(s).publish.some((p) => subjectMatches(p, subject)));
const subscribers = (subject: string) =>
  SERVICE_NAMES.filter((s) => servicePermissions(s).subscribe.some((p) => subjectMatches(p, subject)));

const RPCS = Object.values<RpcSpec>(Rpcs);

describe('NATS permissions derived from the topology', () => {
  it.each(Object.values<ConsumerSpec>(Consumers).map((c) => [c.durable, c] as const))(
    'lets only its owner acknowledge %s, and pull from it only its owner and readers of its stream',
    (_, consumer) => {
      const at = `${consumer.stream.name}.${consumer.durable}`;
      // Ordered consumers are named by nats.js (`oc_<nuid>_<n>`): only `*` covers them. Followers
      // read a stream so; erase reads the streams that hold message text so.
      const followers = Object.values<FollowerSpec>(Followers)
        .filter((f) => f.stream === consumer.stream)
        .map((f) => f.owner);
      const eraser = ERASED_STREAMS.includes(consumer.stream) ? [Rpcs.erase.owner] : [];
      expect(publishers(`$JS.API.CONSUMER.MSG.NEXT.${at}`).sort()).toEqual(
        [...new Set([consumer.owner, ...followers, ...eraser])].sort(),
      );
      expect(publishers(`$JS.ACK.${at}.1.2.3.4.5`)).toEqual([consumer.owner]);
      expect(publishers(Subjects.deadLetter(consumer.stream.name, consumer.durable))).toContain(
        consumer.owner,
      );
    },
  );

  it.each(RPCS.map((r) => [r.subject, r] as const))(
    'lets only the owner of %s answer it, and only its callers request it',
    (_, spec) => {
      const subject = spec.tenantScoped ? rpcSubject(spec, 'acme') : spec.subject;
      expect(subscribers(subject)).toEqual([spec.owner]);
      expect(servicePermissions(spec.owner).allowResponses).toBe(true);
      expect(publishers(subject).sort()).toEqual([...spec.callers].sort());
      if (spec.partitioned) {
        expect(subscribers(rpcPartitionSubject(spec, 7, 'acme'))).toEqual([spec.owner]);
        // nats-server checks a request after mapping it onto its partition.
        expect(publishers(rpcPartitionSubject(spec, 7, 'acme')).sort()).toEqual([...spec.callers].sort());
      }
    },
  );

  it('lets only retrieval purge turns (erase), and nobody purge the events', () => {
    expect(publishers('$JS.API.STREAM.PURGE.TURNS')).toEqual([Rpcs.erase.owner]);
    expect(publishers('$JS.API.STREAM.PURGE.MEMORY_EVENTS')).toEqual([]);
  });

  it('lets only the api edge publish turns (and retrieval, which re-drives dead letters)', () => {
    expect(publishers(Subjects.turn('acme', 'bot'))).toEqual(['retrieval', 'api']);
  });

  it('lets a service subscribe only to its own inbox', () => {
    for (const service of SERVICE_NAMES) expect(subscribers(`_INBOX.${service}.abc.1`)).toEqual([service]);
    expect(subscribers('_INBOX.abc.1')).toEqual([]);
  });

  it("confines a runtime to its own tenant's turns and tenant-scoped RPCs", () => {
    const { publish, subscribe, allowResponses } = runtimePermissions('acme');
    expect(publish).toContain(Subjects.turn('acme', '*'));
    expect(publish).toContain(rpcSubject(Rpcs.search, 'acme'));
    expect(publish.every((subject) => subject.split('.').includes('acme'))).toBe(true);
    // Each tenant-scoped RPC on its subject and on its former ones (RpcSpec.aliases).
    const scoped = RPCS.filter((r) => r.tenantScoped);
    expect(publish).toHaveLength(1 + scoped.length + scoped.flatMap((r) => r.aliases).length);
    expect(publish).toContain('mem.rpc.recall.acme');
    expect(publish.some((p) => subjectMatches(p, Rpcs.gertyComplete.subject))).toBe(false);
    expect(subscribe).toEqual(['_INBOX.>']);
    expect(allowResponses).toBe(false);
  });

  it('writes a runtime account that imports exactly its subjects from the services’ account', () => {
    const block = runtimeAccountBlock('acme', 'UPUBLICKEY');
    const [name, json] = [block.slice(0, block.indexOf(':')), block.slice(block.indexOf(':') + 1)];
    expect(JSON.parse(name)).toBe(runtimeAccount('acme'));
    const account = JSON.parse(json) as {
      users: Array<{ nkey: string }>;
      imports: Array<{ service: { account: string; subject: string } }>;
    };
    expect(account.users.map((u) => u.nkey)).toEqual(['UPUBLICKEY']);
    expect(account.imports.map((i) => i.service)).toEqual(
      runtimeSubjects('acme').map((subject) => ({ account: ENGRAM_ACCOUNT, subject })),
    );
  });

  it('names the environment variable of a password after its user', () => {
    expect(natsPasswordVariable('context-builder')).toBe('ENGRAM_NATS_PASSWORD_CONTEXT_BUILDER');
  });
});
