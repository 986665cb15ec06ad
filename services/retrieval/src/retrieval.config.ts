import { loadConfig, ServiceVariables, type ServiceConfig } from '@engram/config';

/** The values of the variables ServiceVariables.retrieval lists (libs/config), validated. */
export type RetrievalConfig = ServiceConfig<'retrieval'>;

export function loadRetrievalConfig(env: NodeJS.ProcessEnv = process.env): RetrievalConfig {
  return loadConfig(ServiceVariables.retrieval, env);
}

/** Injection token of the validated config. */
export const RETRIEVAL_CONFIG = Symbol('RETRIEVAL_CONFIG');
