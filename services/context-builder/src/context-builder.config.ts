import { ConfigError, loadConfig, SERVICE_VARIABLES, type ConfigOf } from '@engram/config';
import { LayerSharesError, parseLayerShares, type LayerShares } from '@engram/context';

const CONTEXT_BUILDER_VARIABLES = [
  ...SERVICE_VARIABLES,
  'CONTEXT_LAYER_SHARES',
  'MODEL_WINDOWS',
  'CONTEXT_RECENT_MESSAGES',
  'CONTEXT_MEMORY_HITS',
  'CONTEXT_BEING_RECALL',
  'CONTEXT_SEARCH_TIMEOUT_MS',
] as const;

export type ContextBuilderConfig = ConfigOf<(typeof CONTEXT_BUILDER_VARIABLES)[number]> & {
  readonly layerShares: LayerShares;
};

export const CONTEXT_BUILDER_CONFIG = Symbol('CONTEXT_BUILDER_CONFIG');

export function loadContextBuilderConfig(env: NodeJS.ProcessEnv = process.env): ContextBuilderConfig {
  const config = loadConfig(CONTEXT_BUILDER_VARIABLES, env);
  try {
    return { ...config, layerShares: parseLayerShares(config.CONTEXT_LAYER_SHARES) };
  } catch (error) {
    if (error instanceof LayerSharesError) throw new ConfigError([`CONTEXT_LAYER_SHARES: ${error.message}`]);
    throw error;
  }
}
