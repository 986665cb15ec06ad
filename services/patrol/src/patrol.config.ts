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
  // Scenes are embedded in requests whose vectors (of this width) fit a NATS message.
  'EMBEDDING_DIMENSIONS',
  'PATROL_RECALL_TIMEOUT_MS',
  'PATROL_EVERY_MS',
  'PATROL_TICK_MS',
  'PATROL_SCENES_PER_RUN',
  'PATROL_REPAIRS_PER_RUN',
] as const;

export type PatrolConfig = ConfigOf<(typeof PATROL_VARIABLES)[number]>;

/** Injection token of the validated config. */
export const PATROL_CONFIG = Symbol('PATROL_CONFIG');

export function loadPatrolConfig(env: NodeJS.ProcessEnv = process.env): PatrolConfig {
  return loadConfig(PATROL_VARIABLES, env);
}
