import { loadConfig, ServiceVariables, type ServiceConfig } from '@engram/config';

/** The values of the variables ServiceVariables.compactor lists (libs/config), validated. */
export type CompactorConfig = ServiceConfig<'compactor'>;

export const COMPACTOR_CONFIG = Symbol('COMPACTOR_CONFIG');

export function loadCompactorConfig(env: NodeJS.ProcessEnv = process.env): CompactorConfig {
  return loadConfig(ServiceVariables.compactor, env);
}
