import { startTelemetry } from '@engram/telemetry';

// Imported first by main.ts: http must be instrumented before it loads.
startTelemetry('gerty');
