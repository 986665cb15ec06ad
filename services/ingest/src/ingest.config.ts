import { loadConfig, ServiceVariables, type ServiceConfig } from '@engram/config';

/** The values of the variables ServiceVariables.ingest lists (libs/config), validated. */
export type IngestConfig = ServiceConfig<'ingest'>;

export const INGEST_CONFIG = Symbol('INGEST_CONFIG');

export function loadIngestConfig(env: NodeJS.ProcessEnv = process.env): IngestConfig {
  return loadConfig(ServiceVariables.ingest, env);
}
