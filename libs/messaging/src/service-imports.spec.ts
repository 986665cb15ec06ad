import { Logger, type DynamicModule, type Provider } from '@nestjs/common';
import { loadConfig, OUTBOX_VARIABLES, SERVICE_VARIABLES } from '@engram/config';
import { PlatformModule } from '@engram/platform';
import { StoreModule } from '@engram/store';
import { MessagingModule } from './messaging.module';
import { MESSAGING_OPTIONS, type MessagingOptions } from './messaging.options';
import { OutboxModule } from './outbox/outbox.module';
import { OUTBOX_OPTIONS, type OutboxOptions } from './outbox/outbox.options';
import { serviceImports } from './service-imports';

/** The value a dynamic module provides under `token`. */
function provided<T>(module: DynamicModule, token: symbol): T {
  const provider = (module.providers ?? []).find(
    (p: Provider): p is { provide: symbol; useValue: T } =>
      typeof p === 'object' && 'provide' in p && p.provide === token,
  );
  return provider!.useValue;
}

describe('serviceImports', () => {
  beforeAll(() => Logger.overrideLogger(false));
  const config = loadConfig([...SERVICE_VARIABLES, ...OUTBOX_VARIABLES], { OUTBOX_RELAY_INTERVAL_MS: '250' });

  it('imports the platform, messaging and the store of the service, from its config', () => {
    const modules = serviceImports('context-builder', config);
    expect(modules.map((m) => m.module)).toEqual([PlatformModule, MessagingModule, StoreModule]);
    expect(provided<MessagingOptions>(modules[1]!, MESSAGING_OPTIONS)).toMatchObject({
      service: 'context-builder',
      natsUrl: config.NATS_URL,
    });
  });

  it('adds the outbox, with its options, for a service that announces events', () => {
    const modules = serviceImports('ingest', config, { outbox: true });
    expect(modules.map((m) => m.module)).toEqual([
      PlatformModule,
      MessagingModule,
      StoreModule,
      OutboxModule,
    ]);
    expect(provided<OutboxOptions>(modules[3]!, OUTBOX_OPTIONS)).toEqual({
      intervalMs: 250,
      maxAttempts: 10,
    });
  });

  it("passes the service's own consumer runtimes on to messaging", () => {
    const [, messaging] = serviceImports('embedder', config, {
      outbox: true,
      consumers: { 'embedder-messages': { batchSize: 7 } },
    });
    expect(
      provided<MessagingOptions>(messaging!, MESSAGING_OPTIONS).consumers?.['embedder-messages'],
    ).toEqual({
      batchSize: 7,
    });
  });
});
