import {
  loadConfig,
  OUTBOX_VARIABLES,
  RPC_PARTITION_VARIABLES,
  SERVICE_VARIABLES,
  WORKER_VARIABLES,
  type ConfigOf,
} from '@engram/config';

const RETRIEVAL_VARIABLES = [
  ...SERVICE_VARIABLES,
  // memory_save deduplicates like tagged facts at ingest.
  'FACT_OVERLAP_THRESHOLD',
  'SEARCH_EMBED_TIMEOUT_MS',
  // memory_search's optional answer written by Gerty over the hits.
  'SEARCH_SYNTHESIS_TIMEOUT_MS',
  'EMBEDDING_DIMENSIONS',
  // The tenants' in-memory search indexes.
  'RETRIEVAL_INDEX_MEMORY_MB',
  'RETRIEVAL_INDEX_RECONCILE_MS',
  // Access statistics are applied by a consumer.
  ...WORKER_VARIABLES,
  // Saves, forgets and access statistics are announced through the outbox.
  ...OUTBOX_VARIABLES,
  // memory_search is partitioned over the replicas by nats-server.
  ...RPC_PARTITION_VARIABLES,
] as const;

export type RetrievalConfig = ConfigOf<(typeof RETRIEVAL_VARIABLES)[number]>;

export function loadRetrievalConfig(env: NodeJS.ProcessEnv = process.env): RetrievalConfig {
  return loadConfig(RETRIEVAL_VARIABLES, env);
}

/** Injection token of the validated config. */
export const RETRIEVAL_CONFIG = Symbol('RETRIEVAL_CONFIG');
