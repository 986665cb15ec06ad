import {
  loadConfig,
  OUTBOX_VARIABLES,
  SERVICE_VARIABLES,
  WORKER_VARIABLES,
  type ConfigOf,
} from '@engram/config';

const EMBEDDER_VARIABLES = [
  ...SERVICE_VARIABLES,
  ...WORKER_VARIABLES,
  ...OUTBOX_VARIABLES,
  'EMBEDDING_DIMENSIONS',
  'EMBEDDER_BATCH_SIZE',
  'EMBEDDER_CONCURRENCY',
  'EMBEDDER_LINGER_MS',
  'EMBEDDER_SWEEP_INTERVAL_MS',
  'EMBEDDER_SWEEP_GRACE_MS',
  'GERTY_TIMEOUT_MS',
] as const;

export type EmbedderConfig = ConfigOf<(typeof EMBEDDER_VARIABLES)[number]>;

export const EMBEDDER_CONFIG = Symbol('EMBEDDER_CONFIG');

export function loadEmbedderConfig(env: NodeJS.ProcessEnv = process.env): EmbedderConfig {
  return loadConfig(EMBEDDER_VARIABLES, env);
}
