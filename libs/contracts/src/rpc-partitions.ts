import { Rpcs, type RpcSpec } from './rpcs';

/**
 * Partitioned RPCs (`partitioned: true` in Rpcs) are spread over their owner's replicas by
 * nats-server itself: a subject mapping turns a request on `mem.rpc.search.<tenant>` into one
 * on `mem.rpcp.search.<p>.<tenant>`, p = `partition(n)` of the tenant token, and each replica
 * subscribes to the partitions it serves. The tenant stays the last token (tenantOfSubject).
 */

/** Partitions in the NATS configurations this repository generates (deploy/nats, deploy/k8s). */
export const RPC_PARTITIONS = 12;

const RPC_PREFIX = 'mem.rpc.';
const PARTITIONED_PREFIX = 'mem.rpcp.';

/** Every partitioned RPC of the topology. */
export function partitionedRpcs(): RpcSpec[] {
  return Object.values<RpcSpec>(Rpcs).filter((spec) => spec.partitioned);
}

/** `mem.rpcp.search.<partition>.<tenant>` (`*` for either to subscribe): where a mapped request arrives. */
export function rpcPartitionSubject(spec: RpcSpec, partition: number | string, tenantId = '*'): string {
  if (!spec.partitioned || !spec.subject.startsWith(RPC_PREFIX))
    throw new Error(`${spec.subject} is not a partitioned RPC`);
  return `${PARTITIONED_PREFIX}${spec.subject.slice(RPC_PREFIX.length)}.${partition}.${tenantId}`;
}

/** The nats-server `mappings` of every partitioned RPC onto `partitions` partitions of its tenant token. */
export function rpcPartitionMappings(partitions: number): Record<string, string> {
  assertPartitions(partitions);
  return Object.fromEntries(
    partitionedRpcs().map((spec) => [
      `${spec.subject}.*`,
      rpcPartitionSubject(spec, `{{partition(${partitions},1)}}`, '{{wildcard(1)}}'),
    ]),
  );
}

/** The same mappings as a nats-server configuration block (`mappings = { … }`). */
export function natsMappingsBlock(partitions: number): string {
  const lines = Object.entries(rpcPartitionMappings(partitions)).map(
    ([from, to]) => `  ${JSON.stringify(from)}: ${JSON.stringify(to)}`,
  );
  return ['mappings = {', ...lines, '}'].join('\n');
}

/**
 * The partitions replica `replica` of `replicas` serves, ascending: p with p mod replicas in
 * {replica, replica + 1 (mod replicas)}, so with two or more replicas every partition has two
 * of them (one may die), and one replica serves them all.
 */
export function servedPartitions(replica: number, replicas: number, partitions: number): number[] {
  assertPartitions(partitions);
  if (!Number.isInteger(replicas) || replicas < 1) throw new Error(`replicas must be ≥ 1, not ${replicas}`);
  if (!Number.isInteger(replica) || replica < 0 || replica >= replicas)
    throw new Error(`replica must be 0 … ${replicas - 1}, not ${replica}`);
  const next = (replica + 1) % replicas;
  return Array.from({ length: partitions }, (_, p) => p).filter(
    (p) => p % replicas === replica || p % replicas === next,
  );
}

/** The partition nats-server's `partition(partitions, 1)` gives a tenant: FNV-1a (32 bits) of its token. */
export function tenantPartition(tenantId: string, partitions: number): number {
  assertPartitions(partitions);
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(tenantId)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitions;
}

function assertPartitions(partitions: number): void {
  if (!Number.isInteger(partitions) || partitions < 1)
    throw new Error(`partitions must be a whole number ≥ 1, not ${partitions}`);
}
