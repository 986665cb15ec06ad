import { loadConfig, SERVICE_VARIABLES, WORKER_VARIABLES, type ConfigOf } from '@engram/config';

const EMBEDDER_VARIABLES = [...SERVICE_VARIABLES, ...WORKER_VARIABLES, 'EMBEDDING_DIMENSIONS'] as const;

export type EmbedderConfig = ConfigOf<(typeof EMBEDDER_VARIABLES)[number]>;

export function loadEmbedderConfig(): EmbedderConfig {
  return loadConfig(EMBEDDER_VARIABLES);
}
