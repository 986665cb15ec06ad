import { loadConfig, SERVICE_VARIABLES, type ConfigOf } from '@engram/config';

const RETRIEVAL_VARIABLES = [...SERVICE_VARIABLES] as const;

export type RetrievalConfig = ConfigOf<(typeof RETRIEVAL_VARIABLES)[number]>;

export function loadRetrievalConfig(env: NodeJS.ProcessEnv = process.env): RetrievalConfig {
  return loadConfig(RETRIEVAL_VARIABLES, env);
}
