export * from './free-port';
export * from './nats-server';
export * from './scratch-database';
export * from './service-process';
