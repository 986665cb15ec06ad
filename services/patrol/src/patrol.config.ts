import { loadConfig, SERVICE_VARIABLES, WORKER_VARIABLES, type ConfigOf } from '@engram/config';

const PATROL_VARIABLES = [...SERVICE_VARIABLES, ...WORKER_VARIABLES] as const;

export type PatrolConfig = ConfigOf<(typeof PATROL_VARIABLES)[number]>;

export function loadPatrolConfig(env: NodeJS.ProcessEnv = process.env): PatrolConfig {
  return loadConfig(PATROL_VARIABLES, env);
}
