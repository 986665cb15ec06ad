import { loadConfig, ServiceVariables, type ServiceConfig } from '@engram/config';

/** The values of the variables ServiceVariables.embedder lists (libs/config), validated. */
export type EmbedderConfig = ServiceConfig<'embedder'>;

export const EMBEDDER_CONFIG = Symbol('EMBEDDER_CONFIG');

export function loadEmbedderConfig(env: NodeJS.ProcessEnv = process.env): EmbedderConfig {
  return loadConfig(ServiceVariables.embedder, env);
}
