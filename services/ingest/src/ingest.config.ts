import {
  loadConfig,
  OUTBOX_VARIABLES,
  SERVICE_VARIABLES,
  WORKER_VARIABLES,
  type ConfigOf,
} from '@engram/config';

const INGEST_VARIABLES = [
  ...SERVICE_VARIABLES,
  ...WORKER_VARIABLES,
  ...OUTBOX_VARIABLES,
  'INGEST_MAX_MESSAGES_PER_TURN',
  'INGEST_MAX_CONTENT_CHARS',
  'FACT_OVERLAP_THRESHOLD',
] as const;

export type IngestConfig = ConfigOf<(typeof INGEST_VARIABLES)[number]>;

export const INGEST_CONFIG = Symbol('INGEST_CONFIG');

export function loadIngestConfig(env: NodeJS.ProcessEnv = process.env): IngestConfig {
  return loadConfig(INGEST_VARIABLES, env);
}
