import { z } from 'zod';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const url = (protocols: string[]) =>
  z
    .string()
    .refine(
      (value) => value.split(',').every((part) => protocols.some((p) => part.trim().startsWith(`${p}://`))),
      { message: `must be a ${protocols.join(' or ')} URL` },
    );

/** `name=tokens,…` (MODEL_WINDOWS) as a record; a part that is not a name and a whole number of tokens is refused. */
const modelWindows = z
  .string()
  .default('')
  .transform((spec, ctx) => {
    const windows: Record<string, number> = {};
    for (const part of spec
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const [name, tokens] = part.split('=').map((s) => s.trim());
      const value = Number(tokens);
      if (!name || !Number.isInteger(value) || value < 256) {
        ctx.addIssue({
          code: 'custom',
          message: `"${part}": expected <model or prefix>=<window in tokens, at least 256>`,
        });
        return z.NEVER;
      }
      windows[name] = value;
    }
    return windows;
  });

/** `leaf,branch,root` token budgets (COMPACTOR_SUMMARY_TOKENS) as a tuple; three whole numbers of at least 256, or refused. */
const depthBudgets = z
  .string()
  .default('7000,14000,20000')
  .transform((spec, ctx): [number, number, number] => {
    const parts = spec.split(',').map((p) => Number(p.trim()));
    if (parts.length !== 3 || parts.some((n) => !Number.isInteger(n) || n < 256)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${spec}": expected <leaf>,<branch>,<root> tokens, each at least 256`,
      });
      return z.NEVER;
    }
    return parts as [number, number, number];
  });

/** Default HTTP port (health, readiness, metrics) of each service when run on one host. */
export const DEFAULT_HTTP_PORTS = {
  api: 8080,
  ingest: 9101,
  embedder: 9102,
  compactor: 9103,
  patrol: 9104,
  retrieval: 9105,
  'context-builder': 9106,
  gerty: 9107,
} as const;

export type ServiceName = keyof typeof DEFAULT_HTTP_PORTS;

/**
 * V8 flags a service runs with, wherever it is started (npm start, tests, benchmarks; the
 * compose file and deploy/k8s set the same NODE_OPTIONS). Retrieval's young generation is
 * larger: a search allocates a few MB of candidates that die with it, and with the default
 * 16 MB, eight searches at once promoted them into the old generation, whose collections
 * walked the loaded indexes (bench:search at 1 M: GC 2.3 → 0.75 ms, 23.4 → 20.1 ms of CPU a search).
 */
export const SERVICE_NODE_OPTIONS: Partial<Record<ServiceName, string>> = {
  retrieval: '--max-semi-space-size=64',
};

/** NODE_OPTIONS for a service: its own flags after what the caller's environment already has. */
export function nodeOptionsFor(service: string, inherited = process.env['NODE_OPTIONS'] ?? ''): string {
  return [inherited, SERVICE_NODE_OPTIONS[service as ServiceName] ?? ''].join(' ').trim();
}

interface Variable<T extends z.ZodType = z.ZodType> {
  readonly schema: T;
  /** Shown in the configuration table (docs/reference/configuration.md). */
  readonly defaultText: string;
  readonly description: string;
  /**
   * Who reads it besides the services (the CLI, npm start, provisioning, tests): the table's
   * "Read by" column names the services from ServiceVariables, and this after them. Never a service.
   */
  readonly alsoReadBy?: string;
}

function variable<T extends z.ZodType>(
  schema: T,
  defaultText: string,
  description: string,
  alsoReadBy?: string,
) {
  return {
    schema,
    defaultText,
    description,
    ...(alsoReadBy !== undefined && { alsoReadBy }),
  } satisfies Variable<T>;
}

/**
 * Every environment variable Engram reads. The configuration table of
 * docs/reference/configuration.md is generated from this list (`npm run docs:config`), and a
 * test keeps the two equal.
 */
export const Variables = {
  NATS_URL: variable(
    url(['nats', 'tls', 'ws', 'wss']).default('nats://127.0.0.1:4222'),
    'nats://127.0.0.1:4222',
    'NATS server(s) with JetStream, comma-separated.',
    'the CLI, npm start',
  ),
  NATS_USER: variable(
    z.string().min(1).optional(),
    '(unset: no credentials)',
    'User on an authenticated NATS (`deploy/nats/engram-auth.conf`): each service its own name, the CLI `admin`. A server without authentication ignores it.',
    'the CLI',
  ),
  NATS_PASSWORD: variable(
    z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_-]{15,}$/, {
        message:
          'must be 16 or more letters, digits, "_" or "-", starting with a letter (nats-server reads it as a value of its configuration)',
      })
      .optional(),
    '(unset)',
    'Password of NATS_USER; nats-server has the same in `ENGRAM_NATS_PASSWORD_<USER>`. 16+ letters, digits, `_`, `-`, a letter first: `echo p$(openssl rand -hex 24)`.',
    'the CLI',
  ),
  NATS_STREAM_REPLICAS: variable(
    int(1, 5).default(1),
    '1',
    'Replicas of each JetStream stream: 1 on a single server, 3 on a NATS cluster.',
    'engram restore',
  ),
  DATABASE_URL: variable(
    url(['postgres', 'postgresql']).default('postgres://engram_app@127.0.0.1:5432/engram'),
    'postgres://engram_app@127.0.0.1:5432/engram',
    'Postgres for the services: a role without BYPASSRLS, so row-level security isolates tenants (a superuser is refused).',
    'engram db, engram backup and restore, npm start',
  ),
  DATABASE_POOL_SIZE: variable(int(1, 200).default(10), '10', 'Connections per service process.'),
  DATABASE_OWNER_URL: variable(
    url(['postgres', 'postgresql']).default('postgres://engram_owner@127.0.0.1:5432/engram'),
    'postgres://engram_owner@127.0.0.1:5432/engram',
    'Postgres as the schema owner; migrations run with it. Its database is the one `engram backup` dumps and `engram restore` restores into.',
    'engram db migrate, engram backup and restore, npm start',
  ),
  ENGRAM_PG_ADMIN_URL: variable(
    url(['postgres', 'postgresql']).default('postgres://postgres@127.0.0.1:5432/postgres'),
    'postgres://postgres@127.0.0.1:5432/postgres',
    'A superuser connection, used once to create the database, its roles and extensions (and by tests to create scratch databases); `engram backup` and `engram restore` read and load every tenant’s rows with it.',
    'provisioning, engram db setup, engram backup and restore, npm start, tests',
  ),
  EMBEDDING_DIMENSIONS: variable(
    int(2, 4000).default(100),
    '100',
    'Width of every embedding column (halfvec); 100 for the built-in model. Fixed when the schema is created.',
    'engram db migrate',
  ),
  HTTP_PORT: variable(
    int(0, 65535).optional(),
    'api 8080, ingest 9101, embedder 9102, compactor 9103, patrol 9104, retrieval 9105, context-builder 9106, gerty 9107',
    'Port of the service’s HTTP endpoints: /health/live, /health/ready, /metrics (and the API on api).',
  ),
  HTTP_HOST: variable(z.string().default('0.0.0.0'), '0.0.0.0', 'Interface the HTTP endpoints bind to.'),
  LOG_LEVEL: variable(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    'info',
    'Level of the structured JSON logs on stdout.',
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: variable(
    z.string().url().optional(),
    '(unset: traces are not exported)',
    'OTLP/HTTP collector for OpenTelemetry traces; trace context always travels in NATS headers.',
    'every service process (libs/telemetry, before its configuration is loaded)',
  ),
  CONSUMER_CONCURRENCY: variable(
    int(1, 256).optional(),
    '(the topology’s, per consumer)',
    'Batches (or messages) a worker processes at once per consumer.',
  ),
  CONSUMER_BATCH_SIZE: variable(
    int(1, 10_000).optional(),
    '(the topology’s, per consumer)',
    'Most messages handed to a batch handler at once.',
  ),
  CONSUMER_LINGER_MS: variable(
    int(0, 60_000).optional(),
    '(the topology’s, per consumer)',
    'How long a partial batch waits for more messages.',
  ),
  RETRY_BASE_DELAY_MS: variable(
    int(1, 600_000).default(1000),
    '1000',
    'First retry delay of a failed message; doubles per delivery (with jitter) up to RETRY_MAX_DELAY_MS.',
  ),
  RETRY_MAX_DELAY_MS: variable(int(1, 3_600_000).default(60_000), '60000', 'Longest retry delay.'),
  OUTBOX_RELAY_INTERVAL_MS: variable(
    int(50, 60_000).default(1000),
    '1000',
    'How often the outbox relay looks for events that were committed but not published (a writer died, NATS failed); after each look that found none the wait doubles, up to 8 times this.',
  ),
  OUTBOX_MAX_ATTEMPTS: variable(
    int(1, 1000).default(10),
    '10',
    'Publishing attempts of one outbox event (backoff from 1 s to 60 s) before it goes to the dead letters with the last error.',
  ),
  ENGRAM_FAILPOINTS: variable(
    z.string().optional(),
    '(unset)',
    'Fault injection for crash tests, never in production: comma-separated points where the process kills itself with SIGKILL: `outbox.after-commit` (committed, not yet published) or `outbox.after-publish` (published, not yet removed from the outbox), each with an optional `:subject prefix`; `patrol.in-step` (inside the transaction of a patrol step) or `patrol.after-step` (a step committed), each with an optional `:step`.',
    'tests',
  ),
  RPC_CONCURRENCY: variable(
    int(1, 1024).default(32),
    '32',
    'Requests a service process handles at once per RPC.',
  ),
  RPC_MAX_QUEUED: variable(
    int(0, 100_000).default(1000),
    '1000',
    'Requests of one lane (the calling consumer; users share one) waiting beyond RPC_CONCURRENCY before the service answers RESOURCE_EXHAUSTED (busy).',
  ),
  RPC_PARTITIONS: variable(
    int(0, 1024).default(0),
    '0',
    'The n of `partition(n)` in the nats-server mappings of partitioned RPCs (`mem.rpc.search`; deploy/nats/engram.conf maps 12): the replica answers only its partitions’ tenants. 0: no partitioning; the replica answers every tenant, whether nats-server maps or not.',
  ),
  RPC_REPLICAS: variable(
    int(1, 1024).default(1),
    '1',
    'With RPC_PARTITIONS: the replicas that share the partitions. Replica i serves partition p when p mod RPC_REPLICAS is i or i + 1, so two replicas serve each (one alone serves all).',
  ),
  RPC_REPLICA: variable(
    int(0, 1023).optional(),
    '(the `-N` ending of HOSTNAME)',
    'With RPC_PARTITIONS: this replica’s ordinal, 0 … RPC_REPLICAS − 1. Unset: the ordinal a StatefulSet gives its pod’s name.',
  ),
  HOSTNAME: variable(
    z.string().optional(),
    '(set by the container runtime)',
    'The pod’s name; with RPC_PARTITIONS and no RPC_REPLICA, its `-N` ending is the replica’s ordinal.',
  ),
  SHUTDOWN_GRACE_MS: variable(
    int(0, 600_000).default(15_000),
    '15000',
    'On SIGTERM: how long the service may take to stop, whatever NATS or Postgres do. In-flight work gets all of it but a quarter (at most 2 s) for the drain and a fifth (at most 1 s) for the exit.',
  ),
  INGEST_MAX_MESSAGES_PER_TURN: variable(
    int(1, 100_000).default(1000),
    '1000',
    'A turn with more messages is dead-lettered as invalid.',
    'engram import',
  ),
  INGEST_MAX_CONTENT_CHARS: variable(
    int(1, 50_000_000).default(1_000_000),
    '1000000',
    'A message with longer content is dead-lettered as invalid.',
    'engram import',
  ),
  FACT_OVERLAP_THRESHOLD: variable(
    z.coerce.number().min(0).max(1).default(0.7),
    '0.7',
    'A tagged or saved fact whose words overlap an active fact of the same agent by more than this is not stored again.',
  ),
  FACT_SAME_SIMILARITY: variable(
    z.coerce.number().min(0.5).max(1).default(0.9),
    '0.9',
    'An extracted fact whose vector is at least this similar (cosine) to an open fact of the same agent is that fact said again: it is updated in place, not added.',
  ),
  NATS_STORE_DIR: variable(
    z.string().default('/var/lib/engram/nats'),
    '/var/lib/engram/nats',
    'JetStream store directory when provisioning starts nats-server itself.',
    'provisioning',
  ),
  NATS_SERVER_BIN: variable(
    z.string().optional(),
    '(found on PATH or in /usr/sbin)',
    'The nats-server binary the tests start privately (one server per suite).',
    'tests, benchmarks',
  ),
  ENGRAM_OS_RELEASE_FILE: variable(
    z.string().default('/etc/os-release'),
    '/etc/os-release',
    'Which os-release file decides whether this is Debian (tests point it elsewhere).',
    'provisioning',
  ),
  EMBEDDER_BATCH_SIZE: variable(
    int(1, 4096).optional(),
    '(the topology’s)',
    'Most events (turns, summaries, facts) embedded together; overrides the topology for the three vector consumers.',
  ),
  EMBEDDER_CONCURRENCY: variable(
    int(1, 64).optional(),
    '(the topology’s)',
    'Batches the embedder works on at once, per kind (messages, summaries, facts).',
  ),
  EMBEDDER_LINGER_MS: variable(
    int(0, 60_000).optional(),
    '(the topology’s)',
    'How long a partial batch of the vector consumers waits for more events.',
  ),
  EMBEDDER_SWEEP_INTERVAL_MS: variable(
    int(1000, 86_400_000).default(30_000),
    '30000',
    'How often the embedder looks for rows without a vector of the current model (missed events, a model change).',
  ),
  EMBEDDER_SWEEP_GRACE_MS: variable(
    int(0, 86_400_000).default(60_000),
    '60000',
    'Rows younger than this are left to the event path.',
  ),
  GERTY_TIMEOUT_MS: variable(
    int(100, 3_600_000).default(60_000),
    '60000',
    'How long a worker waits for Gerty; Gerty stops working on a request whose caller stopped waiting.',
  ),
  COMPACTOR_LEAF_MESSAGES: variable(
    int(2, 10_000).default(40),
    '40',
    'Most messages a leaf summary covers; a conversation with this many unsummarised messages gets a leaf (its oldest ones).',
  ),
  COMPACTOR_LEAF_TOKENS: variable(
    int(100, 1_000_000).default(4000),
    '4000',
    'Most tokens of messages a leaf covers; unsummarised messages holding this many also make a leaf.',
  ),
  COMPACTOR_FAN_OUT: variable(
    int(2, 64).default(8),
    '8',
    'Leaves per branch summary and branches per root summary.',
  ),
  COMPACTOR_MODEL_WINDOW_TOKENS: variable(
    int(2048, 10_000_000).default(8192),
    '8192',
    "The summarising model's context window: a summary's sources always fit it whole (never truncated).",
  ),
  COMPACTOR_SUMMARY_TOKENS: variable(
    depthBudgets,
    '7000,14000,20000',
    "What writing a leaf, a branch and a root summary may take in tokens, a thinking model's thoughts included (RivetOS v5's budgets): sent as max_tokens, half of it the summary's length, when the window (COMPACTOR_MODEL_WINDOW_TOKENS) has room for it; a smaller window (the built-in model's) gets summaries of at most 4,000 characters.",
  ),
  COMPACTOR_SESSION_TRIGGER_SHARE: variable(
    z.coerce.number().gt(0).max(1).default(0.75),
    '0.75',
    "Session compaction starts when a conversation's uncompacted messages hold more than this share of its model's context window.",
  ),
  COMPACTOR_SESSION_KEEP_SHARE: variable(
    z.coerce.number().min(0).max(1).default(0.4),
    '0.4',
    "Session compaction compacts the oldest messages until the uncompacted rest holds at most this share of the model's window.",
  ),
  COMPACTOR_SESSION_KEEP_MESSAGES: variable(
    int(0, 10_000).default(10),
    '10',
    'Session compaction never compacts the newest this many messages of a conversation.',
  ),
  COMPACTOR_SESSION_STEP_MESSAGES: variable(
    int(1, 100_000).default(240),
    '240',
    'Session compaction compacts at most this many messages in one step; a conversation further from its keep share gets the rest in the steps that follow.',
  ),
  RETRIEVAL_INDEX_MEMORY_MB: variable(
    int(0, 1_048_576).default(2048),
    '2048',
    "Memory for the tenants' in-memory search indexes; the least recently searched are evicted beyond it, a tenant bigger than it stays on Postgres. 0 turns the index off (every search runs in Postgres).",
  ),
  RETRIEVAL_INDEX_RECONCILE_MS: variable(
    int(1000, 86_400_000).default(60_000),
    '60000',
    'How often each loaded index is compared with the store (counts of messages, summaries, facts and vectors); one that differs is loaded again.',
  ),
  SEARCH_EMBED_TIMEOUT_MS: variable(
    int(50, 60_000).default(1500),
    '1500',
    "How long a search waits for the query's vector from Gerty (a model other than the built-in one, whose vectors retrieval makes itself) before it answers from full text alone (and says so).",
  ),
  SEARCH_SYNTHESIS_TIMEOUT_MS: variable(
    int(100, 300_000).default(20_000),
    '20000',
    "How long a search that asks for a synthesis waits for Gerty's answer; past it the hits come back without one (and say why).",
  ),
  PATROL_RECALL_TIMEOUT_MS: variable(
    int(50, 60_000).default(2000),
    '2000',
    "How long a being's recall (mem.rpc.being.recall) waits for the message's vector from Gerty; past it the recall fails with Gerty's error (DEADLINE_EXCEEDED), nothing bumped.",
  ),
  CONTEXT_LAYER_SHARES: variable(
    z.string().default(''),
    '(built-in shares)',
    "Each prompt layer's share of the budget over the built-in ones, e.g. `memory=6000,workspace=0.25`: a fraction of the ceiling (0–1) or a number of tokens. Layers: persona, workspace, tools, sticky_facts, memory, skills, scenes, compaction, snapshot, recent.",
  ),
  MODEL_WINDOWS: variable(
    modelWindows,
    '(built-in table)',
    "Context windows in tokens over the built-in table, by model name or prefix, e.g. `ollama/=32768,my-finetune=65536`: a prompt fills at most 75 % of its model's, and session compaction starts at its share of it. `ollama/` stands for every model Ollama serves (8192 unless set).",
  ),
  CONTEXT_RECENT_MESSAGES: variable(
    int(0, 1000).default(20),
    '20',
    'The most recent (uncompacted) messages of the conversation a prompt may show.',
  ),
  CONTEXT_MEMORY_HITS: variable(
    int(1, 100).default(40),
    '40',
    'How many search hits (summaries and facts followed by their source messages) the relevant-memory layer asks retrieval for; it keeps those its share holds (CONTEXT_LAYER_SHARES, memory=4000 tokens).',
  ),
  CONTEXT_BEING_RECALL: variable(
    z.enum(['on', 'off']).default('on'),
    'on',
    "A being's context build recalls scenes like the current message (mem.rpc.being.recall: up to 3, each counted recalled) and shows them in its scenes block; off when the runtime calls recall itself.",
  ),
  CONTEXT_SEARCH_TIMEOUT_MS: variable(
    int(20, 60_000).default(1000),
    '1000',
    'How long context building waits for relevant memory; past it the prompt is built without it (degraded, and says why).',
  ),
  PATROL_EVERY_MS: variable(
    int(0, 30 * 86_400_000).default(21_600_000),
    '21600000',
    "How often each being's patrol runs on schedule (6 h); 0 runs it on demand only (mem.rpc.patrol.run).",
  ),
  PATROL_TICK_MS: variable(
    int(1000, 86_400_000).default(60_000),
    '60000',
    'How often the patrol looks for beings whose scheduled patrol is due.',
  ),
  PATROL_SCENES_PER_RUN: variable(
    int(1, 2048).default(500),
    '500',
    'Most scene notes one patrol turns into nodes (embedded in one batch); the rest wait for the next run.',
  ),
  PATROL_REPAIRS_PER_RUN: variable(
    int(1, 500).default(20),
    '20',
    'Most scene notes that did not parse one patrol offers the language model for repair (one request each); the rest wait for the next run.',
  ),
  GERTY_MODELS_FILE: variable(
    z.string().optional(),
    '(unset: the built-in model, plus GERTY_OPENAI_* if set)',
    'A YAML file naming every model Gerty may use (provider, endpoint, limits) and the defaults; see docs/reference/models.md.',
  ),
  GERTY_OPENAI_BASE_URL: variable(
    z.string().url().optional(),
    '(unset)',
    'Shorthand for one OpenAI-compatible endpoint (Ollama: http://127.0.0.1:11434/v1, llama.cpp, vLLM, TEI, a cloud API).',
  ),
  GERTY_OPENAI_API_KEY: variable(z.string().optional(), '(unset)', 'Its API key (never logged).'),
  GERTY_OPENAI_CHAT_MODEL: variable(
    z.string().optional(),
    '(unset)',
    'Its chat model; when set it becomes the default completion model ("openai-chat").',
  ),
  GERTY_OPENAI_EMBEDDING_MODEL: variable(
    z.string().optional(),
    '(unset)',
    'Its embedding model; when set it becomes the default embedding model ("openai-embedding"). Its width must equal EMBEDDING_DIMENSIONS.',
  ),
  GERTY_MODEL_CONCURRENCY: variable(
    int(1, 1024).default(2),
    '2',
    'Requests each model works on at once (per gerty process), unless the models file says otherwise.',
  ),
  GERTY_MODEL_MAX_QUEUED: variable(
    int(0, 100_000).default(64),
    '64',
    'Requests of one lane (the calling consumer) that may wait for a model; beyond that gerty answers RESOURCE_EXHAUSTED ("busy").',
  ),
  GERTY_LOCAL_MODEL_PATH: variable(
    z.string().optional(),
    '(the binary built into libs/local-model/assets)',
    'The built-in embedding model’s binary (converted from GloVe at build time).',
    'benchmarks',
  ),
  ENGRAM_SECRET_KEY: variable(
    z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, { message: 'must be 32 bytes, base64-encoded' })
      .optional(),
    '(unset: tenants cannot store keys)',
    'Encrypts tenants’ stored API keys (AES-256-GCM). `openssl rand -base64 32`.',
  ),
  API_RATE_LIMIT_PER_MINUTE: variable(
    int(0, 10_000_000).default(6000),
    '6000',
    'Requests an API key may make per minute on each api replica; past it, 429 with Retry-After. 0 turns the limit off.',
  ),
  API_MAX_BODY_BYTES: variable(
    int(1024, 64 * 1024 * 1024).default(1_048_576),
    '1048576',
    'Largest request body the api accepts (413 beyond it). 1 MiB: what one NATS message carries by default.',
  ),
  API_KEY_CACHE_MS: variable(
    int(0, 3_600_000).default(30_000),
    '30000',
    'How long an api replica trusts a verified key before asking Postgres again (`engram apikey revoke` also tells replicas at once over NATS).',
  ),
  API_RPC_TIMEOUT_MS: variable(
    int(100, 600_000).default(30_000),
    '30000',
    'How long the api waits for the service behind a route before answering 504.',
  ),
  ENGRAM_STACK_PORT_OFFSET: variable(
    int(0, 50_000).default(0),
    '0',
    'Added to every service’s default HTTP port (to run a second stack beside the first).',
    'npm start',
  ),
  ENGRAM_STACK_SERVICES: variable(
    z.string().optional(),
    '(all)',
    'Comma-separated subset of services to start.',
    'npm start',
  ),
} as const satisfies Record<string, Variable>;

export type VariableName = keyof typeof Variables;

/** What every service reads: where NATS is, its HTTP endpoints, logs, RPC limits, shutdown. */
export const GATEWAY_VARIABLES = [
  'NATS_URL',
  'NATS_USER',
  'NATS_PASSWORD',
  'NATS_STREAM_REPLICAS',
  'HTTP_PORT',
  'HTTP_HOST',
  'LOG_LEVEL',
  'SHUTDOWN_GRACE_MS',
  'RPC_CONCURRENCY',
  'RPC_MAX_QUEUED',
] as const satisfies readonly VariableName[];

/** What services with a store read: the above and where Postgres is. */
export const SERVICE_VARIABLES = [...GATEWAY_VARIABLES, 'DATABASE_URL', 'DATABASE_POOL_SIZE'] as const;

/** What services that announce events read: the outbox relay's settings. */
export const OUTBOX_VARIABLES = [
  'OUTBOX_RELAY_INTERVAL_MS',
  'OUTBOX_MAX_ATTEMPTS',
] as const satisfies readonly VariableName[];

/** What services with JetStream consumers read in addition. */
export const WORKER_VARIABLES = [
  'CONSUMER_CONCURRENCY',
  'CONSUMER_BATCH_SIZE',
  'CONSUMER_LINGER_MS',
  'RETRY_BASE_DELAY_MS',
  'RETRY_MAX_DELAY_MS',
] as const satisfies readonly VariableName[];

/** What a service that owns partitioned RPCs reads: which partitions its replica serves. */
export const RPC_PARTITION_VARIABLES = [
  'RPC_PARTITIONS',
  'RPC_REPLICAS',
  'RPC_REPLICA',
  'HOSTNAME',
] as const satisfies readonly VariableName[];
