import type { ConsumerSpec } from '@engram/contracts';
import type { RpcPartitioning } from './rpc/rpc-partitioning';

export interface ConsumerRuntimeOptions {
  /** Batches (batch handlers) or messages (single handlers) processed at once. */
  readonly concurrency: number;
  /** Batch handlers: most messages per batch. */
  readonly batchSize: number;
  /** Batch handlers: how long a partial batch waits for more. */
  readonly lingerMs: number;
  /**
   * How long a running handler keeps its messages from being redelivered (it tells
   * JetStream it is still working). A hung handler loses them after this.
   */
  readonly maxInFlightMs: number;
}

export interface MessagingOptions {
  /** Names the NATS connection and the RPC queue groups. */
  readonly service: string;
  readonly natsUrl: string;
  /** Its user on an authenticated NATS (NATS_USER, NATS_PASSWORD); a server without authentication ignores it. */
  readonly natsCredentials?: { readonly user: string; readonly pass: string };
  /** Stream replicas: 1 on one server, 3 on a NATS cluster. */
  readonly streamReplicas: number;
  /** Per durable consumer name: what configuration overrides of its runtime in the topology. */
  readonly consumers?: Readonly<Record<string, Partial<ConsumerRuntimeOptions>>>;
  readonly retry: { readonly baseDelayMs: number; readonly maxDelayMs: number };
  readonly rpc: { readonly concurrency: number; readonly maxQueued: number };
  /**
   * The partitions of the partitioned RPCs this replica serves; absent: partitioning is off and
   * it answers every tenant. Services read it here (MESSAGING_OPTIONS) to know their tenants.
   */
  readonly rpcPartitioning?: RpcPartitioning;
  /** On shutdown, how long in-flight handlers may take before the connection drains anyway. */
  readonly shutdownGraceMs: number;
}

export const DEFAULT_CONSUMER_RUNTIME: ConsumerRuntimeOptions = {
  concurrency: 4,
  batchSize: 1,
  lingerMs: 0,
  maxInFlightMs: 10 * 60_000,
};

/** How a worker runs a consumer: the topology's runtime, then what configuration overrides. */
export function consumerRuntime(
  spec: ConsumerSpec,
  options: Pick<MessagingOptions, 'consumers'>,
): ConsumerRuntimeOptions {
  return { ...DEFAULT_CONSUMER_RUNTIME, ...spec.runtime, ...options.consumers?.[spec.durable] };
}

export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');
