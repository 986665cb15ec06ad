import {
  loadConfig,
  OUTBOX_VARIABLES,
  SERVICE_VARIABLES,
  WORKER_VARIABLES,
  type ConfigOf,
} from '@engram/config';

const COMPACTOR_VARIABLES = [
  ...SERVICE_VARIABLES,
  ...WORKER_VARIABLES,
  ...OUTBOX_VARIABLES,
  'COMPACTOR_LEAF_MESSAGES',
  'COMPACTOR_LEAF_TOKENS',
  'COMPACTOR_FAN_OUT',
  'COMPACTOR_MODEL_WINDOW_TOKENS',
  'COMPACTOR_SESSION_TRIGGER_SHARE',
  'COMPACTOR_SESSION_KEEP_SHARE',
  'COMPACTOR_SESSION_KEEP_MESSAGES',
  'COMPACTOR_SESSION_STEP_MESSAGES',
  'GERTY_TIMEOUT_MS',
] as const;

export type CompactorConfig = ConfigOf<(typeof COMPACTOR_VARIABLES)[number]>;

export const COMPACTOR_CONFIG = Symbol('COMPACTOR_CONFIG');

export function loadCompactorConfig(env: NodeJS.ProcessEnv = process.env): CompactorConfig {
  return loadConfig(COMPACTOR_VARIABLES, env);
}
