import { SERVICE_VARIABLES, loadConfig, type ConfigOf } from '@engram/config';

// Postgres only for API keys: every memory route translates to a NATS RPC or publish.
const API_VARIABLES = [
  ...SERVICE_VARIABLES,
  'API_RATE_LIMIT_PER_MINUTE',
  'API_MAX_BODY_BYTES',
  'API_KEY_CACHE_MS',
  'API_RPC_TIMEOUT_MS',
  // A turn is checked here as ingest will check it, so a bad one is refused with a 400 at once.
  'INGEST_MAX_MESSAGES_PER_TURN',
  'INGEST_MAX_CONTENT_CHARS',
] as const;

export type ApiConfig = ConfigOf<(typeof API_VARIABLES)[number]>;

export function loadApiConfig(): ApiConfig {
  return loadConfig(API_VARIABLES);
}

/** The config as a Nest provider. */
export const API_CONFIG = Symbol('API_CONFIG');
