import { loadConfig, SERVICE_VARIABLES, WORKER_VARIABLES, type ConfigOf } from '@engram/config';

const COMPACTOR_VARIABLES = [...SERVICE_VARIABLES, ...WORKER_VARIABLES] as const;

export type CompactorConfig = ConfigOf<(typeof COMPACTOR_VARIABLES)[number]>;

export function loadCompactorConfig(): CompactorConfig {
  return loadConfig(COMPACTOR_VARIABLES);
}
