import { ConfigError, type ConfigOf } from '@engram/config';
import {
  rpcAliasSubscriptions,
  rpcPartitionSubject,
  rpcSubscription,
  servedPartitions,
  type RpcSpec,
} from '@engram/contracts';

/** Which partitions of the partitioned RPCs (rpc-partitions.ts in libs/contracts) this replica serves. */
export interface RpcPartitioning {
  /** The n of nats-server's `partition(n)` mapping. */
  readonly partitions: number;
  readonly replica: number;
  readonly replicas: number;
  /** Ascending; every partition when there is one replica. */
  readonly served: readonly number[];
}

export type RpcPartitioningConfig = Partial<
  ConfigOf<'RPC_PARTITIONS' | 'RPC_REPLICAS' | 'RPC_REPLICA' | 'HOSTNAME'>
>;

/** The ordinal a StatefulSet puts at the end of its pods' names (`retrieval-1` → 1); undefined without one. */
export function ordinalOfHostname(hostname: string | undefined): number | undefined {
  const match = hostname?.match(/-(\d+)$/);
  return match ? Number(match[1]) : undefined;
}

/**
 * The partitioning RPC_PARTITIONS, RPC_REPLICAS and RPC_REPLICA (else HOSTNAME's ordinal)
 * describe; undefined when RPC_PARTITIONS is 0 or unset. A replica it cannot place is a ConfigError.
 */
export function rpcPartitioningFrom(config: RpcPartitioningConfig): RpcPartitioning | undefined {
  const partitions = config.RPC_PARTITIONS ?? 0;
  if (partitions === 0) return undefined;
  const replicas = config.RPC_REPLICAS ?? 1;
  const replica = config.RPC_REPLICA ?? ordinalOfHostname(config.HOSTNAME);
  if (replica === undefined)
    throw new ConfigError([
      `RPC_REPLICA=(unset): RPC_PARTITIONS is ${partitions}, so the replica needs its ordinal (set RPC_REPLICA, or run as a StatefulSet pod whose HOSTNAME ends in -N; HOSTNAME is ${JSON.stringify(config.HOSTNAME ?? '')})`,
    ]);
  if (replica >= replicas)
    throw new ConfigError([
      `RPC_REPLICA=${replica}: must be below RPC_REPLICAS (${replicas})${config.RPC_REPLICA === undefined ? `, taken from HOSTNAME ${config.HOSTNAME}` : ''}`,
    ]);
  return { partitions, replica, replicas, served: servedPartitions(replica, replicas, partitions) };
}

/**
 * What an RPC's endpoint subscribes to, all in its one queue group (NATS picks one member of a
 * queue group among all its subscriptions that match a message, whatever their subjects):
 * - an RPC that is not partitioned: `<subject>.*` and its aliases' (RpcSpec.aliases);
 * - a partitioned one, partitioning off: `<subject>.*` and every partition, so one replica
 *   answers whether or not nats-server maps the subject;
 * - partitioning on: `<subject>.*` (answered only when nats-server does not map it) and the
 *   partitions this replica serves.
 */
export function endpointSubjects(spec: RpcSpec, partitioning: RpcPartitioning | undefined): string[] {
  if (!spec.partitioned) return [rpcSubscription(spec), ...rpcAliasSubscriptions(spec)];
  const partitions = partitioning ? partitioning.served : ['*'];
  return [rpcSubscription(spec), ...partitions.map((p) => rpcPartitionSubject(spec, p))];
}
