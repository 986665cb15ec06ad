import type { ConfigOf } from '@engram/config';
import { Consumers } from '@engram/contracts';
import type { ConsumerRuntimeOptions, MessagingOptions } from './messaging.options';
import { rpcPartitioningFrom, type RpcPartitioningConfig } from './rpc/rpc-partitioning';

/** What a service's config holds for messagingOptionsFrom. */
export type ServiceMessagingConfig = ConfigOf<
  'NATS_URL' | 'NATS_STREAM_REPLICAS' | 'RPC_CONCURRENCY' | 'RPC_MAX_QUEUED' | 'SHUTDOWN_GRACE_MS'
> &
  Partial<
    ConfigOf<
      | 'RETRY_BASE_DELAY_MS'
      | 'RETRY_MAX_DELAY_MS'
      | 'CONSUMER_CONCURRENCY'
      | 'CONSUMER_BATCH_SIZE'
      | 'CONSUMER_LINGER_MS'
      | 'NATS_USER'
      | 'NATS_PASSWORD'
    >
  > &
  RpcPartitioningConfig;

/**
 * Messaging options from a service's validated config. Each consumer runs as the
 * topology says, overridden by the service's own variables in `consumers` (by
 * durable name), and those by the CONSUMER_* variables. A service that reads the
 * RPC_PARTITION_VARIABLES gets the partitions its replica serves.
 */
export function messagingOptionsFrom(
  service: string,
  config: ServiceMessagingConfig,
  consumers: Record<string, Partial<ConsumerRuntimeOptions>> = {},
): MessagingOptions {
  const overrides: Partial<ConsumerRuntimeOptions> = {
    ...(config.CONSUMER_CONCURRENCY !== undefined && { concurrency: config.CONSUMER_CONCURRENCY }),
    ...(config.CONSUMER_BATCH_SIZE !== undefined && { batchSize: config.CONSUMER_BATCH_SIZE }),
    ...(config.CONSUMER_LINGER_MS !== undefined && { lingerMs: config.CONSUMER_LINGER_MS }),
  };
  return {
    service,
    natsUrl: config.NATS_URL,
    natsCredentials: natsCredentialsFrom(config),
    streamReplicas: config.NATS_STREAM_REPLICAS,
    consumers: Object.fromEntries(
      Object.values(Consumers).map(({ durable }) => [durable, { ...consumers[durable], ...overrides }]),
    ),
    retry: {
      baseDelayMs: config.RETRY_BASE_DELAY_MS ?? 1000,
      maxDelayMs: config.RETRY_MAX_DELAY_MS ?? 60_000,
    },
    rpc: { concurrency: config.RPC_CONCURRENCY, maxQueued: config.RPC_MAX_QUEUED },
    rpcPartitioning: rpcPartitioningFrom(config),
    shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
  };
}

/** The user and password connect() takes, when NATS_USER is set; none otherwise. */
export function natsCredentialsFrom(
  config: Partial<ConfigOf<'NATS_USER' | 'NATS_PASSWORD'>>,
): { user: string; pass: string } | undefined {
  return config.NATS_USER ? { user: config.NATS_USER, pass: config.NATS_PASSWORD ?? '' } : undefined;
}
