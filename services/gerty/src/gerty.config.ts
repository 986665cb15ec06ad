import { GATEWAY_VARIABLES, loadConfig, type ConfigOf } from '@engram/config';

// No Postgres yet.
const GERTY_VARIABLES = [...GATEWAY_VARIABLES] as const;

export type GertyConfig = ConfigOf<(typeof GERTY_VARIABLES)[number]>;

export function loadGertyConfig(): GertyConfig {
  return loadConfig(GERTY_VARIABLES);
}
