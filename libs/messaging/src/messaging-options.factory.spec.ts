import { Consumers } from '@engram/contracts';
import { messagingOptionsFrom } from './messaging-options.factory';
import { consumerRuntime, DEFAULT_CONSUMER_RUNTIME } from './messaging.options';

const config = {
  NATS_URL: 'nats://127.0.0.1:4222',
  NATS_STREAM_REPLICAS: 1,
  RPC_CONCURRENCY: 8,
  RPC_MAX_QUEUED: 64,
  SHUTDOWN_GRACE_MS: 1000,
};

describe('a consumer’s runtime', () => {
  it('is the topology’s when nothing overrides it', () => {
    const options = messagingOptionsFrom('compactor', config);
    expect(consumerRuntime(Consumers.compactorFacts, options)).toEqual({
      ...Consumers.compactorFacts.runtime,
      maxInFlightMs: DEFAULT_CONSUMER_RUNTIME.maxInFlightMs,
    });
    expect(consumerRuntime(Consumers.ingestTurns, options).batchSize).toBe(
      Consumers.ingestTurns.runtime.batchSize,
    );
  });

  it('takes a service’s own override for the consumers it names, and only those', () => {
    const options = messagingOptionsFrom('embedder', config, {
      [Consumers.embedderMessages.durable]: { batchSize: 32 },
    });
    expect(consumerRuntime(Consumers.embedderMessages, options)).toMatchObject({
      batchSize: 32,
      lingerMs: Consumers.embedderMessages.runtime.lingerMs,
    });
    expect(consumerRuntime(Consumers.embedderToolsynth, options).batchSize).toBe(
      Consumers.embedderToolsynth.runtime.batchSize,
    );
  });

  it('takes CONSUMER_* over everything, for every consumer', () => {
    const options = messagingOptionsFrom(
      'embedder',
      { ...config, CONSUMER_BATCH_SIZE: 8, CONSUMER_LINGER_MS: 1 },
      { [Consumers.embedderMessages.durable]: { batchSize: 32, concurrency: 2 } },
    );
    expect(consumerRuntime(Consumers.embedderMessages, options)).toMatchObject({
      batchSize: 8,
      lingerMs: 1,
      concurrency: 2,
    });
    expect(consumerRuntime(Consumers.retrievalAccess, options)).toMatchObject({
      batchSize: 8,
      lingerMs: 1,
      concurrency: Consumers.retrievalAccess.runtime.concurrency,
    });
  });
});
