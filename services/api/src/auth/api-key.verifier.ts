import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Subscription } from '@nats-io/transport-node';
import { Subjects } from '@engram/contracts';
import { NatsClient, RpcError } from '@engram/messaging';
import { apiKeyHash, ApiKeyStore, type ApiPrincipal } from '@engram/store';
import { API_CONFIG, type ApiConfig } from '../api.config';

/** At most this many verified keys are remembered; the oldest go first. */
const MAX_CACHED_KEYS = 10_000;

/**
 * Who a key is: asked of Postgres, then trusted for API_KEY_CACHE_MS. A revoked key is dropped
 * at once when `engram apikey revoke` announces it on NATS, and at the latest when its entry
 * expires. Unknown keys are never cached (a key made a moment ago must work at once).
 */
@Injectable()
export class ApiKeyVerifier implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ApiKeyVerifier.name);
  private readonly keys: ApiKeyStore;
  private readonly cache = new Map<string, { principal: ApiPrincipal; until: number }>();
  private subscription?: Subscription;

  constructor(
    dataSource: DataSource,
    private readonly nats: NatsClient,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
  ) {
    this.keys = new ApiKeyStore(dataSource);
  }

  onModuleInit(): void {
    void this.listenForRevocations();
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }

  /** The key's principal, or undefined when it is malformed, unknown or revoked. */
  async verify(key: string): Promise<ApiPrincipal | undefined> {
    const id = apiKeyHash(key).toString('base64');
    const cached = this.cache.get(id);
    if (cached && cached.until > Date.now()) return cached.principal;
    this.cache.delete(id);
    let principal: ApiPrincipal | undefined;
    try {
      principal = await this.keys.verify(key);
    } catch (error) {
      // The key was shaped and hashed before the lookup: a failing lookup is the store, not the caller.
      this.logger.warn(`API key lookup failed: ${(error as Error).message}`);
      throw new RpcError('UNAVAILABLE', 'API keys cannot be checked right now (Postgres); retry shortly');
    }
    if (principal && this.config.API_KEY_CACHE_MS > 0) {
      if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(id, { principal, until: Date.now() + this.config.API_KEY_CACHE_MS });
    }
    return principal;
  }

  /** Drops a revoked key from the cache. */
  forget(keyId: string): void {
    for (const [id, entry] of this.cache) if (entry.principal.keyId === keyId) this.cache.delete(id);
  }

  private async listenForRevocations(): Promise<void> {
    try {
      const { connection } = await this.nats.connected();
      this.subscription = connection.subscribe(Subjects.apiKeyRevoked, {
        callback: (error, message) => {
          if (!error) this.forget(message.string());
        },
      });
    } catch (error) {
      this.logger.warn(`not listening for revoked keys: ${(error as Error).message}`);
    }
  }
}
