import type { MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import { Rpcs, TurnEventSchema, type RpcSpec } from '@engram/contracts';
import { EngramInvalidArgumentError } from './errors';
import { checkedTurn, decodeResponse, encodeRequest, requestWithAgent } from './requests';
import {
  DEFAULT_RETRY_POLICY,
  unavailableOnly,
  unavailableOrTimedOut,
  withRetries,
  type RetryPolicy,
} from './retry';
import type { PublishedTurn, Transport } from './transport';
import { HttpTransport, type HttpTransportOptions } from './transports/http.transport';
import { NatsTransport, type NatsTransportOptions } from './transports/nats.transport';

/** What a call of `spec` takes: its request's init shape (every field optional, plain objects welcome). */
export type RequestOf<S extends RpcSpec> = MessageInitShape<S['request']>;
/** What a call of `spec` answers: its response message. */
export type ResponseOf<S extends RpcSpec> = MessageShape<S['response']>;
/** A turn as `publishTurn` takes it: the init shape of memory.v1.TurnEvent. */
export type TurnInit = MessageInitShape<typeof TurnEventSchema>;

export interface ClientOptions {
  /** The agent of every call that names none (a request's `agent`, a search's `filters.agent`, a turn's agent). */
  readonly agent?: string;
  /** How long a call waits for its answer (default 30 s; `runPatrol` 10 min). */
  readonly timeoutMs?: number;
  /** Retries when Engram is unavailable, and only then (default 3, from 200 ms doubling to 2 s, jittered). */
  readonly retry?: Partial<RetryPolicy>;
}

export interface CallOptions {
  readonly timeoutMs?: number;
}

export interface PublishTurnOptions extends CallOptions {
  /** Publishing the same key again adds nothing (default: the turn's `turnId`). */
  readonly idempotencyKey?: string;
}

export type NatsClientOptions = NatsTransportOptions & ClientOptions;
export type HttpClientOptions = HttpTransportOptions & ClientOptions;

const DEFAULT_TIMEOUT_MS = 30_000;
/** A patrol with a language model runs for minutes (the CLI's `patrol run --timeout` default). */
const PATROL_TIMEOUT_MS = 600_000;

/**
 * Engram's memory for an agent runtime: publish each turn, search and browse what was said,
 * build the next prompt, keep being memory — over NATS (`EngramClient.connect`) or over
 * HTTP with an API key (`EngramClient.http`). Requests and responses are the contracts'
 * protobuf messages (libs/contracts); every failure is an EngramError subclass, and a call
 * is retried with backoff only when Engram is unavailable.
 */
export class EngramClient {
  readonly agent: string | undefined;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private closed = false;

  constructor(
    private readonly transport: Transport,
    options: ClientOptions = {},
  ) {
    this.agent = options.agent || undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  }

  /** Over NATS, the native path: `await EngramClient.connect({ servers, tenant, agent })`. */
  static async connect(options: NatsClientOptions): Promise<EngramClient> {
    const retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    const transport = await withRetries(() => NatsTransport.open(options), retry);
    return new EngramClient(transport, options);
  }

  /** Over the HTTP edge with an API key (the key decides the tenant): `EngramClient.http({ baseUrl, apiKey, agent })`. */
  static http(options: HttpClientOptions): EngramClient {
    return new EngramClient(new HttpTransport(options), options);
  }

  /** Where this client looks for Engram. */
  get where(): string {
    return this.transport.where;
  }

  /** Any RPC of the contracts (`Rpcs.beingSoulPut`, `Rpcs.workspacePut` …), the client's agent filled in. */
  async call<S extends RpcSpec>(
    spec: S,
    request: RequestOf<S>,
    options: CallOptions = {},
  ): Promise<ResponseOf<S>> {
    this.assertOpen();
    const body = encodeRequest(spec.request, requestWithAgent(spec, request, this.agent));
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const answer = await withRetries(
      () => this.transport.call(spec, body, timeoutMs),
      this.retry,
      undefined,
      spec.readOnly ? unavailableOrTimedOut : unavailableOnly,
    );
    return decodeResponse(spec, answer);
  }

  /**
   * Publishes a turn to memory (durable once this resolves; ingest stores it soon after). The
   * same idempotency key (default: `turnId`) is stored once. A turn ingest would refuse is
   * refused here, as EngramInvalidArgumentError with its field violations.
   */
  async publishTurn(turn: TurnInit, options: PublishTurnOptions = {}): Promise<PublishedTurn> {
    this.assertOpen();
    const agent = turn.agent || this.agent;
    if (!agent) {
      throw new EngramInvalidArgumentError('invalid TurnEvent: agent is required', [
        { field: 'agent', description: 'agent is required: set it on the turn or on the client' },
      ]);
    }
    const message = checkedTurn(turn, agent, this.transport.tenant);
    const body = encodeRequest(TurnEventSchema, message);
    const key = options.idempotencyKey || message.turnId;
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    return withRetries(
      () => this.transport.publishTurn({ agent, sessionKey: message.sessionKey }, body, key, timeoutMs),
      this.retry,
    );
  }

  /** Hybrid search over messages, summaries and facts (memory_search). */
  search(request: RequestOf<typeof Rpcs.search>, options?: CallOptions) {
    return this.call(Rpcs.search, request, options);
  }

  /** A conversation, or all of an agent's messages, a page at a time (memory_browse). */
  browse(request: RequestOf<typeof Rpcs.browse>, options?: CallOptions) {
    return this.call(Rpcs.browse, request, options);
  }

  /** Counts of the tenant's (or agent's) memory and the workers' queues. */
  stats(request: RequestOf<typeof Rpcs.statsGet> = {}, options?: CallOptions) {
    return this.call(Rpcs.statsGet, request, options);
  }

  /** Stores a fact explicitly (deduplicated like tagged facts). */
  save(request: RequestOf<typeof Rpcs.save>, options?: CallOptions) {
    return this.call(Rpcs.save, request, options);
  }

  /** Closes a fact's validity, with a reason; nothing is deleted. */
  forget(request: RequestOf<typeof Rpcs.forget>, options?: CallOptions) {
    return this.call(Rpcs.forget, request, options);
  }

  /** Facts by agent, category, conversation, time and metadata, newest first, with the total. */
  listFacts(request: RequestOf<typeof Rpcs.factsList> = {}, options?: CallOptions) {
    return this.call(Rpcs.factsList, request, options);
  }

  /** A fact's versions, oldest first, and the one in force; any version's id finds them. */
  getFact(request: RequestOf<typeof Rpcs.factsGet>, options?: CallOptions) {
    return this.call(Rpcs.factsGet, request, options);
  }

  /** A new version of a fact (new text, category, importance or metadata); the old one is kept, closed. */
  updateFact(request: RequestOf<typeof Rpcs.factsUpdate>, options?: CallOptions) {
    return this.call(Rpcs.factsUpdate, request, options);
  }

  /** Drills down into items by ref (`summary:45`, `message:12`, `fact:6`): mem.rpc.expand. */
  expand(request: RequestOf<typeof Rpcs.expand>, options?: CallOptions) {
    return this.call(Rpcs.expand, request, options);
  }

  /** The blocks of the next prompt, within budget. */
  buildContext(request: RequestOf<typeof Rpcs.contextBuild>, options?: CallOptions) {
    return this.call(Rpcs.contextBuild, request, options);
  }

  /** Stores an agent's profile (replacing the whole profile). */
  putAgent(request: RequestOf<typeof Rpcs.agentsPut>, options?: CallOptions) {
    return this.call(Rpcs.agentsPut, request, options);
  }

  /** Reads an agent's profile. */
  getAgent(request: RequestOf<typeof Rpcs.agentsGet> = {}, options?: CallOptions) {
    return this.call(Rpcs.agentsGet, request, options);
  }

  /** Stores an agent's workspace documents (SOUL.md, USER.md …) by name. */
  putWorkspace(request: RequestOf<typeof Rpcs.workspacePut>, options?: CallOptions) {
    return this.call(Rpcs.workspacePut, request, options);
  }

  /** Stores an agent's skills (Markdown with triggers) by name. */
  putSkills(request: RequestOf<typeof Rpcs.skillsPut>, options?: CallOptions) {
    return this.call(Rpcs.skillsPut, request, options);
  }

  /** A being's scene note (JSON text), for its next patrol to make a scene of. */
  addScene(request: RequestOf<typeof Rpcs.beingScenesAdd>, options?: CallOptions) {
    return this.call(Rpcs.beingScenesAdd, request, options);
  }

  /** A being's note, TODO, reminder or piece of knowledge. */
  addNote(request: RequestOf<typeof Rpcs.beingNotesAdd>, options?: CallOptions) {
    return this.call(Rpcs.beingNotesAdd, request, options);
  }

  /** A being's notes, newest first. */
  listNotes(request: RequestOf<typeof Rpcs.beingNotesList> = {}, options?: CallOptions) {
    return this.call(Rpcs.beingNotesList, request, options);
  }

  /** What a message brings back to a being: up to 3 scenes, in a `<memory>` tag. */
  recall(request: RequestOf<typeof Rpcs.beingRecall>, options?: CallOptions) {
    return this.call(Rpcs.beingRecall, request, options);
  }

  /** Every scene of one of a being's clusters. */
  recallMemory(request: RequestOf<typeof Rpcs.beingClustersRecall>, options?: CallOptions) {
    return this.call(Rpcs.beingClustersRecall, request, options);
  }

  /** A being's scenes by keywords. */
  searchMemory(request: RequestOf<typeof Rpcs.beingNodesSearch>, options?: CallOptions) {
    return this.call(Rpcs.beingNodesSearch, request, options);
  }

  /** A being: soul, rules, relationships, preferences, clusters and the notes waiting. */
  getBeing(request: RequestOf<typeof Rpcs.beingGet> = {}, options?: CallOptions) {
    return this.call(Rpcs.beingGet, request, options);
  }

  /** Runs a being's patrol now and answers what each step changed (waits up to 10 min by default). */
  runPatrol(request: RequestOf<typeof Rpcs.patrolRun> = {}, options: CallOptions = {}) {
    return this.call(Rpcs.patrolRun, request, { timeoutMs: options.timeoutMs ?? PATROL_TIMEOUT_MS });
  }

  /** Closes the NATS connection the client opened (a connection you passed in stays open). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.transport.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('this EngramClient is closed');
  }
}
