import {
  loadConfig,
  OUTBOX_VARIABLES,
  SERVICE_VARIABLES,
  WORKER_VARIABLES,
  type ConfigOf,
} from '@engram/config';

const PATROL_VARIABLES = [
  ...SERVICE_VARIABLES,
  ...WORKER_VARIABLES,
  ...OUTBOX_VARIABLES,
  'GERTY_TIMEOUT_MS',
  'EMBEDDING_DIMENSIONS',
  'PATROL_EVERY_MS',
  'PATROL_TICK_MS',
  'PATROL_SCENES_PER_RUN',
] as const;

export type PatrolConfig = ConfigOf<(typeof PATROL_VARIABLES)[number]>;

export const PATROL_CONFIG = Symbol('PATROL_CONFIG');

export function loadPatrolConfig(env: NodeJS.ProcessEnv = process.env): PatrolConfig {
  return loadConfig(PATROL_VARIABLES, env);
}
