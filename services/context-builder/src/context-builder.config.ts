import { ConfigError, loadConfig, ServiceVariables, type ServiceConfig } from '@engram/config';
import { LayerSharesError, parseLayerShares, type LayerShares } from '@engram/context';

/** The values of the variables ServiceVariables['context-builder'] lists (libs/config), validated. */
export type ContextBuilderConfig = ServiceConfig<'context-builder'> & {
  readonly layerShares: LayerShares;
};

export const CONTEXT_BUILDER_CONFIG = Symbol('CONTEXT_BUILDER_CONFIG');

export function loadContextBuilderConfig(env: NodeJS.ProcessEnv = process.env): ContextBuilderConfig {
  const config = loadConfig(ServiceVariables['context-builder'], env);
  try {
    return { ...config, layerShares: parseLayerShares(config.CONTEXT_LAYER_SHARES) };
  } catch (error) {
    if (error instanceof LayerSharesError) throw new ConfigError([`CONTEXT_LAYER_SHARES: ${error.message}`]);
    throw error;
  }
}
