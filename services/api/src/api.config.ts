import { loadConfig, ServiceVariables, type ServiceConfig } from '@engram/config';

/** The values of the variables ServiceVariables.api lists (libs/config), validated. */
export type ApiConfig = ServiceConfig<'api'>;

export function loadApiConfig(): ApiConfig {
  return loadConfig(ServiceVariables.api);
}

/** The config as a Nest provider. */
export const API_CONFIG = Symbol('API_CONFIG');
