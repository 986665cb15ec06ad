import { loadConfig, SERVICE_VARIABLES, WORKER_VARIABLES, type ConfigOf } from '@engram/config';

const PATROL_VARIABLES = [
  ...SERVICE_VARIABLES,
  ...WORKER_VARIABLES,
  // Recall compares the message's vector with the store's (of this width).
  'EMBEDDING_DIMENSIONS',
  'PATROL_RECALL_TIMEOUT_MS',
] as const;

export type PatrolConfig = ConfigOf<(typeof PATROL_VARIABLES)[number]>;

/** Injection token of the validated config. */
export const PATROL_CONFIG = Symbol('PATROL_CONFIG');

export function loadPatrolConfig(env: NodeJS.ProcessEnv = process.env): PatrolConfig {
  return loadConfig(PATROL_VARIABLES, env);
}
