import { loadConfig, ServiceVariables, type ServiceConfig } from '@engram/config';

/** The values of the variables ServiceVariables.gerty lists (libs/config), validated. */
export type GertyConfig = ServiceConfig<'gerty'>;

export const GERTY_CONFIG = Symbol('GERTY_CONFIG');

export function loadGertyConfig(env: NodeJS.ProcessEnv = process.env): GertyConfig {
  return loadConfig(ServiceVariables.gerty, env);
}
