import { loadConfig, ServiceVariables, type ServiceConfig } from '@engram/config';

/** The values of the variables ServiceVariables.patrol lists (libs/config), validated. */
export type PatrolConfig = ServiceConfig<'patrol'>;

/** Injection token of the validated config. */
export const PATROL_CONFIG = Symbol('PATROL_CONFIG');

export function loadPatrolConfig(env: NodeJS.ProcessEnv = process.env): PatrolConfig {
  return loadConfig(ServiceVariables.patrol, env);
}
