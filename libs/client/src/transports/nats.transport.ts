import { jetstream } from '@nats-io/jetstream';
import {
  connect,
  headers as natsHeaders,
  NoRespondersError,
  RequestError,
  TimeoutError,
  type NatsConnection,
  type NodeConnectionOptions,
} from '@nats-io/transport-node';
import {
  decodeMessage,
  isValidToken,
  MsgIds,
  RpcErrorReplySchema,
  rpcSubject,
  Subjects,
  type RpcSpec,
} from '@engram/contracts';
import {
  EngramDeadlineExceededError,
  EngramInvalidArgumentError,
  EngramUnavailableError,
  engramError,
  fieldViolationsOf,
} from '../errors';
import type { PublishedTurn, Transport } from '../transport';

/** Epoch milliseconds after which the caller stops waiting: the RPC endpoint stops working on it then (libs/messaging's DEADLINE_HEADER). */
export const DEADLINE_HEADER = 'Engram-Deadline';

export interface NatsTransportOptions {
  /** NATS server URL(s), e.g. `nats://127.0.0.1:4222` (default: NATS_URL, else that). */
  readonly servers?: string | string[];
  /** The tenant every call and turn belongs to. */
  readonly tenant: string;
  /** A connection of your own to use instead (the client then never closes it). */
  readonly connection?: NatsConnection;
  /** Anything else NATS' `connect` takes (credentials, TLS, name …). */
  readonly connectOptions?: Omit<NodeConnectionOptions, 'servers'>;
}

/**
 * Engram's native path: RPCs as core NATS request/reply in protobuf JSON (the wire of
 * libs/messaging's callRpc and RpcEndpoint), turns published to JetStream with their
 * idempotency key as Nats-Msg-Id.
 */
export class NatsTransport implements Transport {
  private constructor(
    private readonly connection: NatsConnection,
    readonly tenant: string,
    private readonly owned: boolean,
    readonly where: string,
  ) {}

  /** Connects (or adopts `options.connection`); an unreachable server is EngramUnavailableError. */
  static async open(options: NatsTransportOptions): Promise<NatsTransport> {
    if (!isValidToken(options.tenant)) {
      throw new EngramInvalidArgumentError(`tenant "${options.tenant}" is not a valid tenant id`, [
        { field: 'tenant', description: 'tenant must be 1 to 64 of A-Z a-z 0-9 _ -' },
      ]);
    }
    const servers = options.servers ?? process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
    const where = [servers].flat().join(', ');
    if (options.connection) return new NatsTransport(options.connection, options.tenant, false, where);
    try {
      // Once connected, a long-lived agent keeps reconnecting rather than giving up after 10 tries.
      const connection = await connect({ maxReconnectAttempts: -1, ...options.connectOptions, servers });
      return new NatsTransport(connection, options.tenant, true, where);
    } catch (error) {
      throw new EngramUnavailableError(reasonOf(error), where, 0, { servers: where });
    }
  }

  async call(spec: RpcSpec, body: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    const subject = rpcSubject(spec, this.tenant);
    const headers = natsHeaders();
    headers.set(DEADLINE_HEADER, String(Date.now() + timeoutMs));
    let reply;
    try {
      reply = await this.connection.request(subject, body, { timeout: timeoutMs, headers });
    } catch (error) {
      throw this.requestFailure(error, subject, timeoutMs);
    }
    if (reply.headers?.get('Nats-Service-Error-Code')) {
      const { error } = decodeMessage(RpcErrorReplySchema, reply.data, { strict: false });
      const details = (error?.details ?? {}) as Record<string, unknown>;
      throw engramError(
        error?.code || 'INTERNAL',
        error?.message || reply.headers.get('Nats-Service-Error') || `${subject} failed`,
        details,
        { where: this.where, fieldViolations: fieldViolationsOf(details['fieldViolations']) },
      );
    }
    return reply.data;
  }

  async publishTurn(
    { agent, sessionKey }: { readonly agent: string; readonly sessionKey: string },
    body: Uint8Array,
    idempotencyKey: string,
    timeoutMs: number,
  ): Promise<PublishedTurn> {
    const subject = Subjects.turn(this.tenant, agent);
    try {
      const ack = await jetstream(this.connection).publish(subject, body, {
        // Scoped by tenant, agent and conversation, as MsgIds.turn says: equal keys never collide.
        msgID: MsgIds.turn(this.tenant, agent, sessionKey, idempotencyKey),
        timeout: timeoutMs,
      });
      return { stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate };
    } catch (error) {
      // JetStream says "not enabled" when no stream listens on the subject: nobody answered the publish.
      if (isNoResponders((error as { cause?: unknown } | undefined)?.cause)) {
        throw new EngramUnavailableError(`no stream takes ${subject} (has ingest started?)`, this.where, 0, {
          subject,
        });
      }
      throw this.requestFailure(error, subject, timeoutMs);
    }
  }

  async close(): Promise<void> {
    if (this.owned && !this.connection.isClosed()) await this.connection.drain();
  }

  /** Nobody answering is UNAVAILABLE (retried); no answer in time is DEADLINE_EXCEEDED (not: it may have run). */
  private requestFailure(error: unknown, subject: string, timeoutMs: number): unknown {
    if (isNoResponders(error)) {
      return new EngramUnavailableError(`no service answers ${subject}`, this.where, 0, { subject });
    }
    if (
      error instanceof TimeoutError ||
      (error instanceof RequestError && error.cause instanceof TimeoutError)
    ) {
      return new EngramDeadlineExceededError(`${subject} did not answer within ${timeoutMs} ms`, { subject });
    }
    if (this.connection.isClosed()) {
      return new EngramUnavailableError(`the connection to NATS is closed`, this.where, 0, { subject });
    }
    return error;
  }
}

function isNoResponders(error: unknown): boolean {
  return error instanceof NoRespondersError || (error instanceof RequestError && error.isNoResponders());
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
