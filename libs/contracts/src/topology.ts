import type { DescMessage } from '@bufbuild/protobuf';
import { Subjects } from './subjects';
import { TurnEventSchema } from './gen/memory/v1/turn_pb';
import {
  AccessRecordedSchema,
  PatrolCompletedSchema,
  CompactionCreatedSchema,
  EmbeddingWrittenSchema,
  FactUpsertedSchema,
  MemoryErasedSchema,
  MessageStoredSchema,
  SummaryCreatedSchema,
} from './gen/memory/v1/events_pb';
import { ToolSynthesisWorkSchema } from './gen/memory/v1/work_pb';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A JetStream stream, provisioned from code by every service that uses it. */
export interface StreamSpec {
  readonly name: string;
  readonly description: string;
  readonly subjects: readonly string[];
  /** How long a message stays in the stream; Postgres is the system of record, streams are buffers. */
  readonly maxAgeMs: number;
  /** Window within which a repeated Nats-Msg-Id is dropped by the server. */
  readonly duplicateWindowMs: number;
  /**
   * "limits": messages stay until they age out (every consumer reads them);
   * "workqueue": a message is gone once acknowledged (one consumer, work items).
   */
  readonly retention: 'limits' | 'workqueue';
  /** Work queues keyed by subject: a newer item replaces the pending one (duplicates coalesce). */
  readonly maxMsgsPerSubject?: number;
}

export const Streams = {
  turns: {
    name: 'TURNS',
    description: 'Turns published by agent runtimes, until ingest made them durable.',
    subjects: [Subjects.turnWildcard],
    maxAgeMs: 7 * DAY,
    duplicateWindowMs: 2 * MINUTE,
    retention: 'limits',
  },
  events: {
    name: 'MEMORY_EVENTS',
    description:
      'What the workers announce: messages stored, summaries and compactions created, facts upserted, vectors written, patrols completed, memory erased.',
    subjects: [
      Subjects.messageStoredWildcard,
      Subjects.summaryCreatedWildcard,
      Subjects.compactionCreatedWildcard,
      Subjects.factUpsertedWildcard,
      Subjects.embeddingWrittenWildcard,
      Subjects.accessRecordedWildcard,
      Subjects.patrolCompletedWildcard,
      Subjects.memoryErasedWildcard,
    ],
    maxAgeMs: 7 * DAY,
    duplicateWindowMs: 2 * MINUTE,
    retention: 'limits',
  },
  work: {
    name: 'WORK',
    description: 'Work items keyed by what they are about (one pending item per subject).',
    subjects: [Subjects.toolSynthesisWildcard],
    maxAgeMs: 30 * DAY,
    duplicateWindowMs: 2 * MINUTE,
    retention: 'workqueue',
    maxMsgsPerSubject: 1,
  },
  deadLetters: {
    name: 'DEADLETTERS',
    description: 'Events that could not be handled, each with the original message and the reason.',
    subjects: [Subjects.deadLetterWildcard],
    maxAgeMs: 30 * DAY,
    duplicateWindowMs: 10 * MINUTE,
    retention: 'limits',
  },
} as const satisfies Record<string, StreamSpec>;

export const ALL_STREAMS: readonly StreamSpec[] = Object.values(Streams);

/** An event a service announces on a tenant-scoped subject of MEMORY_EVENTS. */
export interface EventSpec<Schema extends DescMessage = DescMessage> {
  readonly schema: Schema;
  readonly subject: (tenantId: string) => string;
}

export const Events = {
  messageStored: { schema: MessageStoredSchema, subject: Subjects.messageStored },
  summaryCreated: { schema: SummaryCreatedSchema, subject: Subjects.summaryCreated },
  compactionCreated: { schema: CompactionCreatedSchema, subject: Subjects.compactionCreated },
  factUpserted: { schema: FactUpsertedSchema, subject: Subjects.factUpserted },
  embeddingWritten: { schema: EmbeddingWrittenSchema, subject: Subjects.embeddingWritten },
  accessRecorded: { schema: AccessRecordedSchema, subject: Subjects.accessRecorded },
  patrolCompleted: { schema: PatrolCompletedSchema, subject: Subjects.patrolCompleted },
  memoryErased: { schema: MemoryErasedSchema, subject: Subjects.memoryErased },
} as const satisfies Record<string, EventSpec>;

/** A work item: one subject per thing it is about (tenant + key), one pending item per subject. */
export interface WorkSpec<Schema extends DescMessage = DescMessage> {
  readonly schema: Schema;
  readonly subject: (tenantId: string, key: string) => string;
}

export const WorkItems = {
  toolSynthesis: { schema: ToolSynthesisWorkSchema, subject: Subjects.toolSynthesis },
} as const satisfies Record<string, WorkSpec>;

/** Every service: one deployable each, in services/<name>. */
export const SERVICE_NAMES = [
  'ingest',
  'embedder',
  'compactor',
  'patrol',
  'retrieval',
  'context-builder',
  'gerty',
  'api',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** What a handler announces, named by its key in Events or WorkItems; it goes out through the outbox. */
export type Announcement = keyof typeof Events | keyof typeof WorkItems;

/** How a worker takes a consumer's messages; configuration may override it (CONSUMER_*, EMBEDDER_*). */
export interface ConsumerRuntime {
  /** Most messages handed to a batch handler at once (1 for a one-message handler). */
  readonly batchSize: number;
  /** How long a partial batch waits for more messages. */
  readonly lingerMs: number;
  /** Batches (or messages) one replica works on at once. */
  readonly concurrency: number;
}

/**
 * A durable pull consumer: which stream, which subjects, how its messages decode,
 * and how often a failing message is retried before it is dead-lettered.
 * Run N replicas of the owning service and JetStream spreads the messages over them.
 */
export interface ConsumerSpec<Schema extends DescMessage = DescMessage> {
  readonly stream: StreamSpec;
  readonly durable: string;
  readonly description: string;
  readonly filterSubject: string;
  readonly schema: Schema;
  /** Reject unknown JSON fields: on for what outsiders publish, off for our own events (rolling upgrades). */
  readonly strictDecoding: boolean;
  /**
   * A message whose handler fails on its maxDeliver-th delivery (or later) goes to
   * the dead-letter subject. Failures because a dependency is down do not: the
   * consumer pauses until it is back. JetStream itself gives up after
   * maxDeliver × DELIVERY_CEILING_FACTOR deliveries that were never settled (a
   * worker that died on the message every time), and that is dead-lettered too.
   */
  readonly maxDeliver: number;
  /** How long a delivery may stay unacknowledged before JetStream redelivers it. */
  readonly ackWaitMs: number;
  /** Upper bound of unacknowledged messages over all replicas. */
  readonly maxAckPending: number;
  /** The service whose replicas run this consumer and share its messages. */
  readonly owner: ServiceName;
  readonly runtime: ConsumerRuntime;
  /** What its handler announces, in the transaction of its effect. */
  readonly publishes: readonly Announcement[];
  /**
   * KEDA keeps about one replica of the owner per this many pending messages (the
   * largest over the owner's consumers wins). Absent: this backlog does not scale it.
   */
  readonly scaleAtLag?: number;
}

export const DELIVERY_CEILING_FACTOR = 4;

/** A reader of a stream through an ordered consumer of its own process: no durable, no acks, nothing shared. */
export interface FollowerSpec {
  readonly stream: StreamSpec;
  /** The service each of whose replicas follows the stream (every replica hears every message). */
  readonly owner: ServiceName;
  readonly description: string;
}

/** Every stream a service follows with ordered consumers rather than a durable one. */
export const Followers = {
  retrievalIndexes: {
    stream: Streams.events,
    owner: 'retrieval',
    description: "retrieval: changes to the tenants' search indexes a replica holds in memory",
  },
} as const satisfies Record<string, FollowerSpec>;

/** Where an event the outbox relay could not publish goes: the dead letters of a stream named for the outbox. */
export const OUTBOX_DEAD_LETTERS = { stream: 'OUTBOX', consumer: 'outbox-relay' } as const;

/**
 * Every durable consumer, keyed by the camelCase of its durable name. One name from here to
 * the code: `compactorSummaries` (durable compactor-summaries) is handled by
 * CompactorSummariesConsumer in services/compactor/src/…/compactor-summaries.consumer.ts.
 */
export const Consumers = {
  ingestTurns: {
    stream: Streams.turns,
    durable: 'ingest-turns',
    description: 'ingest: turns into the transcript',
    filterSubject: Subjects.turnWildcard,
    schema: TurnEventSchema,
    strictDecoding: true,
    maxDeliver: 5,
    // Short, so a killed worker's turns come back quickly; running batches keep theirs with "working".
    ackWaitMs: 10_000,
    // Room for 4 batches of 1,024 in flight (and one pulled ahead) on each of a few replicas.
    maxAckPending: 16_384,
    owner: 'ingest',
    // Batches turn many small turns into a few multi-row statements.
    runtime: { batchSize: 1024, lingerMs: 20, concurrency: 4 },
    publishes: ['messageStored', 'factUpserted'],
    // One replica's turns in flight (4 batches of 1,024).
    scaleAtLag: 4096,
  },
  embedderMessages: {
    stream: Streams.events,
    durable: 'embedder-messages',
    description: 'embedder: vectors for stored messages (and tool calls to describe)',
    filterSubject: Subjects.messageStoredWildcard,
    schema: MessageStoredSchema,
    strictDecoding: false,
    maxDeliver: 5,
    // Short, so a killed worker's events come back quickly; running batches keep theirs with "working".
    ackWaitMs: 10_000,
    maxAckPending: 4096,
    owner: 'embedder',
    runtime: { batchSize: 256, lingerMs: 25, concurrency: 4 },
    publishes: ['embeddingWritten', 'toolSynthesis'],
    scaleAtLag: 200,
  },
  compactorSummaries: {
    stream: Streams.events,
    durable: 'compactor-summaries',
    description: "compactor: a conversation's summary tree grows as its messages are stored",
    filterSubject: Subjects.messageStoredWildcard,
    schema: MessageStoredSchema,
    strictDecoding: false,
    maxDeliver: 5,
    // A batch waits for Gerty; running batches keep their messages with "working".
    ackWaitMs: 30_000,
    maxAckPending: 4096,
    owner: 'compactor',
    // Many turns of one conversation in a batch make one run over it.
    runtime: { batchSize: 256, lingerMs: 50, concurrency: 2 },
    publishes: ['summaryCreated'],
    scaleAtLag: 200,
  },
  compactorFacts: {
    stream: Streams.events,
    durable: 'compactor-facts',
    description: 'compactor: facts from the last messages after each assistant turn',
    filterSubject: Subjects.messageStoredWildcard,
    schema: MessageStoredSchema,
    strictDecoding: false,
    maxDeliver: 5,
    // A turn waits for Gerty's extraction and embedding; running batches keep theirs with "working".
    ackWaitMs: 30_000,
    maxAckPending: 4096,
    owner: 'compactor',
    // A turn's extraction is a few Gerty calls; several turns run at once.
    runtime: { batchSize: 16, lingerMs: 20, concurrency: 4 },
    publishes: ['factUpserted'],
    // Each turn is a Gerty extraction and an embedding: a smaller backlog warrants a replica.
    scaleAtLag: 50,
  },
  compactorSessions: {
    stream: Streams.events,
    durable: 'compactor-sessions',
    description:
      "compactor: a conversation past 75 % of its model's window has its oldest messages compacted",
    filterSubject: Subjects.messageStoredWildcard,
    schema: MessageStoredSchema,
    strictDecoding: false,
    maxDeliver: 5,
    // A step waits for Gerty's extraction and summaries; running batches keep theirs with "working".
    ackWaitMs: 30_000,
    maxAckPending: 4096,
    owner: 'compactor',
    // Most turns only look (one cheap query per conversation); a due step is a few Gerty calls.
    runtime: { batchSize: 256, lingerMs: 50, concurrency: 2 },
    publishes: ['compactionCreated', 'factUpserted'],
    scaleAtLag: 200,
  },
  embedderSummaries: {
    stream: Streams.events,
    durable: 'embedder-summaries',
    description: 'embedder: vectors for new summaries',
    filterSubject: Subjects.summaryCreatedWildcard,
    schema: SummaryCreatedSchema,
    strictDecoding: false,
    maxDeliver: 5,
    ackWaitMs: 10_000,
    maxAckPending: 4096,
    owner: 'embedder',
    runtime: { batchSize: 256, lingerMs: 25, concurrency: 4 },
    publishes: ['embeddingWritten'],
    scaleAtLag: 200,
  },
  embedderFacts: {
    stream: Streams.events,
    durable: 'embedder-facts',
    description: 'embedder: vectors for new or changed facts',
    filterSubject: Subjects.factUpsertedWildcard,
    schema: FactUpsertedSchema,
    strictDecoding: false,
    maxDeliver: 5,
    ackWaitMs: 10_000,
    maxAckPending: 4096,
    owner: 'embedder',
    runtime: { batchSize: 256, lingerMs: 25, concurrency: 4 },
    publishes: ['embeddingWritten'],
    scaleAtLag: 200,
  },
  retrievalAccess: {
    stream: Streams.events,
    durable: 'retrieval-access',
    description: 'retrieval: access statistics of what searches returned',
    filterSubject: Subjects.accessRecordedWildcard,
    schema: AccessRecordedSchema,
    strictDecoding: false,
    maxDeliver: 5,
    ackWaitMs: 10_000,
    maxAckPending: 4096,
    owner: 'retrieval',
    // Access events are small: many per transaction, one transaction at a time.
    runtime: { batchSize: 256, lingerMs: 200, concurrency: 1 },
    publishes: [],
    // No scaleAtLag: retrieval scales with its RPC load; this backlog is a few statements.
  },
  embedderToolsynth: {
    stream: Streams.work,
    durable: 'embedder-toolsynth',
    description: 'embedder: one-sentence descriptions of tool calls stored without content',
    filterSubject: Subjects.toolSynthesisWildcard,
    schema: ToolSynthesisWorkSchema,
    strictDecoding: false,
    // At most 3 attempts, then a dead letter.
    maxDeliver: 3,
    ackWaitMs: 60_000,
    maxAckPending: 1024,
    owner: 'embedder',
    // Each call is described by Gerty: smaller batches than the vector consumers.
    runtime: { batchSize: 64, lingerMs: 25, concurrency: 4 },
    publishes: ['embeddingWritten'],
    scaleAtLag: 100,
  },
} as const satisfies Record<string, ConsumerSpec>;

/**
 * The Nats-Msg-Id of every event and work item, built here only. An id names the
 * change, not the attempt: whoever announces the same change again (a redelivery, a
 * relay after a crash) uses the same id, so JetStream and the outbox keep one copy.
 */
export const MsgIds = {
  /**
   * A turn published by a runtime (by its idempotency key: its turn id unless the caller gave
   * one): the SDK, the HTTP API and `engram import` use it. A turn id is unique only within its
   * conversation, so the id names tenant, agent and session too: equal turn ids of two tenants,
   * agents or conversations never drop each other's turn as a duplicate.
   */
  turn: (tenantId: string, agent: string, sessionKey: string, key: string) =>
    `turn:${tenantId}:${agent}:${sessionKey}:${key}`,
  /** A stored turn: once per turn of a conversation. */
  messageStored: (tenantId: string, conversationId: string, turnId: string) =>
    `stored:${tenantId}:${conversationId}:${turnId}`,
  /** A new fact, whoever wrote it (ingest's tags, memory_save, extraction). */
  factCreated: (tenantId: string, factId: string) => `fact:${tenantId}:${factId}:created`,
  /** A fact updated in place, once per origin (the turn's message or a compaction step). */
  factUpdated: (tenantId: string, factId: string, origin: string) =>
    `fact:${tenantId}:${factId}:updated:${origin}`,
  /** A fact closed by a correction (once: a closed fact stays closed). */
  factSuperseded: (tenantId: string, factId: string) => `fact:${tenantId}:${factId}:superseded`,
  /** A fact closed by memory_forget. */
  factForgotten: (tenantId: string, factId: string) => `fact:${tenantId}:${factId}:forgotten`,
  summaryCreated: (tenantId: string, summaryId: string) => `summary:${tenantId}:${summaryId}:created`,
  compactionCreated: (tenantId: string, compactionId: string) =>
    `compaction:${tenantId}:${compactionId}:created`,
  /** Vectors written for one request (an event's stream position, a sweep range) by one model. */
  embeddingWritten: (requestKey: string, model: string) => `embedded:${requestKey}:${model}`,
  /** One flush of what searches returned (its event id is unique). */
  accessRecorded: (eventId: string) => `access:${eventId}`,
  toolSynthesis: (tenantId: string, messageId: string) => `toolsynth:${tenantId}:${messageId}`,
  /** A patrol run of a being, once when it finishes. */
  patrolCompleted: (tenantId: string, runId: string) => `patrol:${tenantId}:${runId}:completed`,
  /** An erasure, once (its audit entry's id). */
  memoryErased: (tenantId: string, erasureId: string) => `erased:${tenantId}:${erasureId}`,
} as const;
