export * from './platform.module';
export * from './health/readiness.registry';
export * from './metrics/metrics';
export * from './bootstrap/run-service';
export * from './bootstrap/shutdown-budget';
export * from './faults/failpoint';
