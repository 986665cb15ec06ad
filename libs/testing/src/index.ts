export * from './fake-openai-server';
export * from './free-port';
export * from './migrated-database';
export * from './nats-server';
export * from './scratch-database';
export * from './service-process';
export * from './service-under-test';
export * from './stream-events';
