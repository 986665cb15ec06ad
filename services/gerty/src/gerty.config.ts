import { loadConfig, SERVICE_VARIABLES, type ConfigOf } from '@engram/config';

const GERTY_VARIABLES = [
  ...SERVICE_VARIABLES,
  'EMBEDDING_DIMENSIONS',
  'GERTY_MODELS_FILE',
  'GERTY_OPENAI_BASE_URL',
  'GERTY_OPENAI_API_KEY',
  'GERTY_OPENAI_CHAT_MODEL',
  'GERTY_OPENAI_EMBEDDING_MODEL',
  'GERTY_MODEL_CONCURRENCY',
  'GERTY_MODEL_MAX_QUEUED',
  'GERTY_LOCAL_MODEL_PATH',
  'ENGRAM_SECRET_KEY',
] as const;

export type GertyConfig = ConfigOf<(typeof GERTY_VARIABLES)[number]>;

export const GERTY_CONFIG = Symbol('GERTY_CONFIG');

export function loadGertyConfig(env: NodeJS.ProcessEnv = process.env): GertyConfig {
  return loadConfig(GERTY_VARIABLES, env);
}
