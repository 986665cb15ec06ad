import type { ConfigOf } from './load-config';
import {
  OUTBOX_VARIABLES,
  RPC_PARTITION_VARIABLES,
  SERVICE_VARIABLES,
  WORKER_VARIABLES,
  type ServiceName,
  type VariableName,
} from './variables';

/**
 * The variables each service loads, and nothing else: its `<service>.config.ts` loads exactly
 * this list, and the configuration table's "Read by" column is derived from it, so neither can
 * name a variable the other does not.
 */
export const ServiceVariables = {
  // Postgres only for API keys: every memory route translates to a NATS RPC or publish.
  api: [
    ...SERVICE_VARIABLES,
    'API_RATE_LIMIT_PER_MINUTE',
    'API_MAX_BODY_BYTES',
    'API_KEY_CACHE_MS',
    'API_RPC_TIMEOUT_MS',
    // A turn is checked here as ingest will check it, so a bad one is refused with a 400 at once.
    'INGEST_MAX_MESSAGES_PER_TURN',
    'INGEST_MAX_CONTENT_CHARS',
  ],
  ingest: [
    ...SERVICE_VARIABLES,
    ...WORKER_VARIABLES,
    ...OUTBOX_VARIABLES,
    'INGEST_MAX_MESSAGES_PER_TURN',
    'INGEST_MAX_CONTENT_CHARS',
    'FACT_OVERLAP_THRESHOLD',
  ],
  embedder: [
    ...SERVICE_VARIABLES,
    ...WORKER_VARIABLES,
    ...OUTBOX_VARIABLES,
    'EMBEDDING_DIMENSIONS',
    'EMBEDDER_BATCH_SIZE',
    'EMBEDDER_CONCURRENCY',
    'EMBEDDER_LINGER_MS',
    'EMBEDDER_SWEEP_INTERVAL_MS',
    'EMBEDDER_SWEEP_GRACE_MS',
    'GERTY_TIMEOUT_MS',
  ],
  compactor: [
    ...SERVICE_VARIABLES,
    ...WORKER_VARIABLES,
    ...OUTBOX_VARIABLES,
    'COMPACTOR_LEAF_MESSAGES',
    'COMPACTOR_LEAF_TOKENS',
    'COMPACTOR_FAN_OUT',
    'COMPACTOR_MODEL_WINDOW_TOKENS',
    'COMPACTOR_SUMMARY_TOKENS',
    'COMPACTOR_SESSION_TRIGGER_SHARE',
    'COMPACTOR_SESSION_KEEP_SHARE',
    'COMPACTOR_SESSION_KEEP_MESSAGES',
    'COMPACTOR_SESSION_STEP_MESSAGES',
    'FACT_SAME_SIMILARITY',
    'MODEL_WINDOWS',
    'GERTY_TIMEOUT_MS',
  ],
  patrol: [
    ...SERVICE_VARIABLES,
    ...WORKER_VARIABLES,
    ...OUTBOX_VARIABLES,
    'GERTY_TIMEOUT_MS',
    // Scenes are embedded in requests whose vectors (of this width) fit a NATS message.
    'EMBEDDING_DIMENSIONS',
    'PATROL_RECALL_TIMEOUT_MS',
    'PATROL_EVERY_MS',
    'PATROL_TICK_MS',
    'PATROL_SCENES_PER_RUN',
    'PATROL_REPAIRS_PER_RUN',
  ],
  retrieval: [
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
  ],
  'context-builder': [
    ...SERVICE_VARIABLES,
    'CONTEXT_LAYER_SHARES',
    'MODEL_WINDOWS',
    'CONTEXT_RECENT_MESSAGES',
    'CONTEXT_MEMORY_HITS',
    'CONTEXT_BEING_RECALL',
    'CONTEXT_SEARCH_TIMEOUT_MS',
  ],
  gerty: [
    ...SERVICE_VARIABLES,
    'EMBEDDING_DIMENSIONS',
    'GERTY_MODELS_FILE',
    'GERTY_OPENAI_BASE_URL',
    'GERTY_OPENAI_API_KEY',
    'GERTY_OPENAI_CHAT_MODEL',
    'GERTY_OPENAI_EMBEDDING_MODEL',
    'GERTY_MODEL_CONCURRENCY',
    'GERTY_MODEL_MAX_QUEUED',
    'GERTY_LOCAL_MODEL_PATH',
    'ENGRAM_SECRET_KEY',
  ],
} as const satisfies Record<ServiceName, readonly VariableName[]>;

/** The validated configuration of a service: the values of exactly its ServiceVariables. */
export type ServiceConfig<S extends ServiceName> = ConfigOf<(typeof ServiceVariables)[S][number]>;

/** The services that load `name`, in ServiceVariables' order. */
export function servicesReading(name: VariableName): ServiceName[] {
  return (Object.keys(ServiceVariables) as ServiceName[]).filter((service) =>
    (ServiceVariables[service] as readonly VariableName[]).includes(name),
  );
}
