export * from './platform.module';
export * from './health/readiness.registry';
export * from './metrics/metrics';
export * from './bootstrap/run-service';
export * from './bootstrap/shutdown-budget';
export * from './faults/failpoint';
export * from './lanes/lanes';
export * from './lanes/semaphore';
