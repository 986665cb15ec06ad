import type { DynamicModule } from '@nestjs/common';
import type { ConfigOf, ServiceName } from '@engram/config';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import { messagingOptionsFrom, type ServiceMessagingConfig } from './messaging-options.factory';
import { MessagingModule } from './messaging.module';
import type { ConsumerRuntimeOptions } from './messaging.options';
import { OutboxModule } from './outbox/outbox.module';
import { outboxOptionsFrom } from './outbox/outbox.options';

/** What every service's config holds for its imports: logs, NATS, Postgres (SERVICE_VARIABLES). */
type ServiceImportsConfig = ServiceMessagingConfig &
  ConfigOf<'LOG_LEVEL' | 'DATABASE_URL' | 'DATABASE_POOL_SIZE'>;
/** What a service that announces events loads too (OUTBOX_VARIABLES). */
type OutboxConfig = ConfigOf<'OUTBOX_RELAY_INTERVAL_MS' | 'OUTBOX_MAX_ATTEMPTS'>;

export interface ServiceImportsOptions {
  /** The service announces events: `Outbox` and its relay (its config loads OUTBOX_VARIABLES). */
  readonly outbox?: boolean;
  /** Per durable consumer name, the service's own overrides of the topology's runtime (EMBEDDER_* …). */
  readonly consumers?: Record<string, Partial<ConsumerRuntimeOptions>>;
}

/**
 * The modules every service imports, from its validated config: logs, health and metrics
 * (PlatformModule), NATS (MessagingModule), Postgres (StoreModule; every service has one: the api
 * for API keys, gerty for tenants' model keys) and, with `outbox`, the outbox (OutboxModule).
 * `outbox: true` compiles only with a config that loads the outbox's variables.
 */
export function serviceImports(
  service: ServiceName,
  config: ServiceImportsConfig,
  options?: ServiceImportsOptions & { readonly outbox?: false },
): DynamicModule[];
export function serviceImports(
  service: ServiceName,
  config: ServiceImportsConfig & OutboxConfig,
  options: ServiceImportsOptions & { readonly outbox: true },
): DynamicModule[];
export function serviceImports(
  service: ServiceName,
  config: ServiceImportsConfig & Partial<OutboxConfig>,
  options: ServiceImportsOptions = {},
): DynamicModule[] {
  return [
    PlatformModule.forRoot({ service, logLevel: config.LOG_LEVEL }),
    MessagingModule.forRoot(messagingOptionsFrom(service, config, options.consumers)),
    StoreModule.forRoot({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, service }),
    // With `outbox` on, the second signature guarantees the outbox's variables.
    ...(options.outbox ? [OutboxModule.forRoot(outboxOptionsFrom(config as OutboxConfig))] : []),
  ];
}
