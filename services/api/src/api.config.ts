import { GATEWAY_VARIABLES, loadConfig, type ConfigOf } from '@engram/config';

// No Postgres: the api only translates HTTP to the NATS RPCs.
const API_VARIABLES = [...GATEWAY_VARIABLES] as const;

export type ApiConfig = ConfigOf<(typeof API_VARIABLES)[number]>;

export function loadApiConfig(): ApiConfig {
  return loadConfig(API_VARIABLES);
}
