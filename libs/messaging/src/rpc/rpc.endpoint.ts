import { Logger } from '@nestjs/common';
import {
  headers as natsHeaders,
  type Msg,
  type NatsConnection,
  type Subscription,
} from '@nats-io/transport-node';
import type { JsonObject, Message } from '@bufbuild/protobuf';
import {
  RpcErrorReplySchema,
  checkRequest,
  create,
  decodeMessage,
  encodeMessage,
  isValidToken,
  rpcPartitionSubject,
  rpcSubscription,
  tenantOfSubject,
  undecodableField,
  type FieldViolation,
  type RpcSpec,
} from '@engram/contracts';
import { counter, histogram, inLane, LANE_HEADER, Semaphore } from '@engram/platform';
import { SpanKind, SpanStatusCode, trace } from '@engram/telemetry';
import { errorMessage } from '../consumers/error-message';
import { isDependencyFailure } from '../consumers/failure-kind';
import { extractTraceContext } from '../tracing/trace-headers';
import { RpcError } from './rpc-error';
import { endpointSubjects, type RpcPartitioning } from './rpc-partitioning';

export interface RpcCallContext {
  /** The tenant token of the subject (tenant-scoped RPCs only). */
  readonly tenantId: string;
  readonly subject: string;
  /** Aborted when the caller stops waiting (its deadline travels in the Engram-Deadline header). */
  readonly signal: AbortSignal;
  /**
   * Who asks, as the caller says (Engram-Principal; '' when it says nothing). The api edge sets
   * it from the verified API key, so over HTTP it cannot be made up; over NATS it is what a
   * client of the tenant's subjects claims.
   */
  readonly principal: string;
}

/** Epoch milliseconds after which the caller no longer waits for the answer. */
export const DEADLINE_HEADER = 'Engram-Deadline';
/** Who asks: what an audit entry records (erase). */
export const PRINCIPAL_HEADER = 'Engram-Principal';
/** Milliseconds between "working" messages the caller asks for while its request waits or runs (CallOptions.heartbeatMs). */
export const HEARTBEAT_HEADER = 'Engram-Heartbeat';
/** Marks a "working" message: the request is still in hand, the answer is to come. */
export const WORKING_HEADER = 'Engram-Working';
/** The shortest interval between "working" messages, whatever a caller asks. */
const MIN_HEARTBEAT_MS = 250;
/** The longest principal kept; a longer one is cut. */
const MAX_PRINCIPAL_CHARS = 200;

export type RpcInvoker = (request: unknown, ctx: RpcCallContext) => Promise<unknown>;

const requests = counter('engram_rpc_requests_total', 'RPC requests per subject and result code', [
  'rpc',
  'code',
]);
const seconds = histogram('engram_rpc_seconds', 'RPC handling time', ['rpc']);
const tracer = trace.getTracer('@engram/messaging');
const EMPTY_OBJECT = new TextEncoder().encode('{}');
/** Most field violations one answer lists. */
const MAX_VIOLATIONS = 100;

/**
 * Answers one RPC on core NATS in a queue group (every replica of the service
 * shares the load; of a partitioned RPC, the replicas that serve the request's
 * partition, see endpointSubjects). Requests beyond the concurrency limit wait in a bounded
 * queue; past it the caller gets RESOURCE_EXHAUSTED at once, never an unbounded
 * backlog. A request reaches the handler only once it decoded and passed its
 * rules (libs/contracts); every failure is answered as {code, message, details}.
 */
export class RpcEndpoint {
  private readonly logger: Logger;
  private readonly slots: Semaphore;
  private readonly subscriptions: Subscription[] = [];
  private warnedUnmapped = false;

  constructor(
    private readonly spec: RpcSpec,
    private readonly service: string,
    private readonly invoke: RpcInvoker,
    private readonly limits: { concurrency: number; maxQueued: number },
    private readonly partitioning?: RpcPartitioning,
  ) {
    this.logger = new Logger(`${RpcEndpoint.name} ${spec.subject}`);
    this.slots = new Semaphore(limits.concurrency);
  }

  start(connection: NatsConnection): void {
    const queue = `engram.${this.spec.subject}`;
    const subjects = endpointSubjects(this.spec, this.partitioning);
    for (const subject of subjects) {
      this.subscriptions.push(
        connection.subscribe(subject, {
          queue,
          callback: (error, msg) => {
            if (error) {
              this.logger.error(`subscription error: ${error.message}`);
              return;
            }
            void this.accept(msg);
          },
        }),
      );
    }
    this.logger.log(`answering ${this.served(subjects)} (queue ${queue}, ${this.service})`);
  }

  /** What the log says this endpoint answers: its subjects, and its partitions when it has some. */
  private served(subjects: readonly string[]): string {
    if (!this.spec.partitioned) return subjects.join(', ');
    if (!this.partitioning) return `${subjects.join(' and ')}: every partition (partitioning is off)`;
    const { served, partitions, replica, replicas } = this.partitioning;
    return `${subjects[0]} and partitions ${served.join(', ')} of ${partitions} (${rpcPartitionSubject(this.spec, '{p}')}) as replica ${replica} of ${replicas}`;
  }

  /** Stops taking requests and waits for the ones in progress. */
  async stop(graceMs: number): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.drain().catch(() => undefined)));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.slots.idle(), new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
  }

  private async accept(msg: Msg): Promise<void> {
    const stopHeartbeat = heartbeat(msg);
    try {
      await this.admit(msg);
    } finally {
      stopHeartbeat();
    }
  }

  /**
   * The request handled when a slot frees (slots go to the callers' lanes in turn), or refused
   * when too many of its lane already wait; it is handled in its lane.
   */
  private async admit(msg: Msg): Promise<void> {
    const lane = msg.headers?.get(LANE_HEADER) ?? '';
    if (this.partitioning && !this.warnedUnmapped && msg.subject.startsWith(`${this.spec.subject}.`)) {
      // A partitioned replica only hears the plain subject when nats-server does not map it.
      this.warnedUnmapped = true;
      this.logger.warn(
        `${msg.subject} arrived unmapped: nats-server has no partition mapping for ${rpcSubscription(this.spec)} (RPC_PARTITIONS is ${this.partitioning.partitions}), so every replica answers every tenant`,
      );
    }
    if (!(await this.slots.admit(lane, this.limits.maxQueued))) {
      this.fail(
        msg,
        new RpcError(
          'RESOURCE_EXHAUSTED',
          `${this.spec.subject} is busy: ${this.limits.maxQueued} requests${lane ? ` of ${lane}` : ''} are already waiting`,
          {
            retryable: true,
          },
        ),
      );
      return;
    }
    try {
      await inLane(lane, () => this.handle(msg));
    } finally {
      this.slots.release();
    }
  }

  private handle(msg: Msg): Promise<void> {
    const stopTimer = seconds.startTimer({ rpc: this.spec.subject });
    return tracer.startActiveSpan(
      `rpc ${this.spec.subject}`,
      { kind: SpanKind.SERVER, attributes: { 'messaging.system': 'nats', 'rpc.method': this.spec.subject } },
      extractTraceContext(msg.headers),
      async (span) => {
        try {
          const tenantId = this.spec.tenantScoped ? tenantOfSubject(msg.subject) : '';
          if (this.spec.tenantScoped && !isValidToken(tenantId)) {
            throw RpcError.invalidArgument(`"${tenantId}" is not a tenant id ([A-Za-z0-9_-]{1,64})`);
          }
          const request = this.validRequest(msg);
          const deadline = Number(msg.headers?.get(DEADLINE_HEADER));
          const hasDeadline = Number.isFinite(deadline) && deadline > 0;
          if (hasDeadline && deadline <= Date.now()) {
            // Waited in the queue past the caller's deadline: nobody will read the answer.
            throw new RpcError(
              'DEADLINE_EXCEEDED',
              'the caller’s deadline passed before the request was handled',
            );
          }
          const principal = (msg.headers?.get(PRINCIPAL_HEADER) ?? '').slice(0, MAX_PRINCIPAL_CHARS);
          let signal: AbortSignal | undefined;
          const result = await this.invoke(request, {
            tenantId,
            subject: msg.subject,
            principal,
            // Made only for a handler that reads it (aborting at the same deadline): a timer per
            // request, left to fire seconds after most answers, cost every call that never looks.
            get signal() {
              return (signal ??= hasDeadline
                ? AbortSignal.timeout(Math.max(0, deadline - Date.now()))
                : new AbortController().signal);
            },
          });
          msg.respond(encodeMessage(this.spec.response, result as never));
          requests.inc({ rpc: this.spec.subject, code: 'OK' });
        } catch (error) {
          // Only a read says so: a write that lost its store may have committed, and must not be sent again.
          const dependencyDown =
            this.spec.readOnly && !(error instanceof RpcError) && isDependencyFailure(error);
          const rpcError =
            error instanceof RpcError
              ? error
              : dependencyDown
                ? // Postgres out of reach (a restart): the caller may ask again shortly.
                  new RpcError('UNAVAILABLE', `${this.spec.subject} cannot reach its store right now`, {
                    retryable: true,
                  })
                : new RpcError('INTERNAL', 'internal error; the service log has the details');
          if (dependencyDown) this.logger.warn(`${this.spec.subject} unavailable: ${errorMessage(error)}`);
          else if (!(error instanceof RpcError)) {
            this.logger.error(
              `${this.spec.subject} failed: ${errorMessage(error)}`,
              error instanceof Error ? error.stack : undefined,
            );
            span.recordException(error as Error);
          }
          span.setStatus({ code: SpanStatusCode.ERROR, message: rpcError.message });
          this.fail(msg, rpcError);
        } finally {
          span.end();
          stopTimer();
        }
      },
    );
  }

  /** The decoded request, once it passed its rules; INVALID_ARGUMENT otherwise. */
  private validRequest(msg: Msg): Message {
    let request: Message;
    try {
      request = decodeMessage(this.spec.request, msg.data.length === 0 ? EMPTY_OBJECT : msg.data, {
        strict: true,
      });
    } catch (error) {
      // Named as a field violation when one field is to blame (a date that is no date, a number as text).
      const violation = undecodableField(this.spec.request, msg.data);
      throw RpcError.invalidArgument(
        `request is not a valid ${this.spec.request.typeName}: ${violation?.description ?? errorMessage(error)}`,
        { type: this.spec.request.typeName, ...(violation && { fieldViolations: [violation] }) },
      );
    }
    const violations = checkRequest(this.spec, request);
    if (violations.length > 0) throw invalidRequest(this.spec, violations);
    return request;
  }

  private fail(msg: Msg, error: RpcError): void {
    requests.inc({ rpc: this.spec.subject, code: error.code });
    if (!msg.reply) return;
    const h = natsHeaders();
    // The NATS micro convention, so generic NATS tooling recognises the failure.
    h.set('Nats-Service-Error-Code', String(error.status));
    h.set('Nats-Service-Error', error.message.replace(/[\r\n]+/g, ' ').slice(0, 500));
    const body = create(RpcErrorReplySchema, {
      error: { code: error.code, message: error.message, details: error.details as JsonObject },
    });
    msg.respond(encodeMessage(RpcErrorReplySchema, body), { headers: h });
  }
}

/**
 * "Working" messages to the caller every interval it asked for (Engram-Heartbeat), the first at
 * once, until the returned function is called; nothing when it asked for none.
 */
function heartbeat(msg: Msg): () => void {
  const every = Number(msg.headers?.get(HEARTBEAT_HEADER));
  if (!msg.reply || !Number.isFinite(every) || every <= 0) return () => undefined;
  const working = natsHeaders();
  working.set(WORKING_HEADER, '1');
  const send = () => {
    try {
      msg.respond(new Uint8Array(0), { headers: working });
    } catch {
      // The connection is closing: the caller hears silence, as it would from a dead process.
    }
  };
  send();
  const timer = setInterval(send, Math.max(MIN_HEARTBEAT_MS, every));
  return () => clearInterval(timer);
}

/** INVALID_ARGUMENT with one violation per field: `invalid SaveRequest: agent is required; …`. */
function invalidRequest(spec: RpcSpec, violations: readonly FieldViolation[]): RpcError {
  const listed = violations.slice(0, MAX_VIOLATIONS);
  return RpcError.invalidArgument(
    `invalid ${spec.request.name}: ${listed.map((v) => v.description).join('; ')}`,
    {
      fieldViolations: listed,
    },
  );
}
