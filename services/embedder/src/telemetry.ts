import { startTelemetry } from '@engram/telemetry';

// Imported first by main.ts: pg and http must be instrumented before they load.
startTelemetry('embedder');
