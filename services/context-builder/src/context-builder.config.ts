import { loadConfig, SERVICE_VARIABLES, type ConfigOf } from '@engram/config';

const CONTEXT_BUILDER_VARIABLES = [...SERVICE_VARIABLES] as const;

export type ContextBuilderConfig = ConfigOf<(typeof CONTEXT_BUILDER_VARIABLES)[number]>;

export function loadContextBuilderConfig(env: NodeJS.ProcessEnv = process.env): ContextBuilderConfig {
  return loadConfig(CONTEXT_BUILDER_VARIABLES, env);
}
