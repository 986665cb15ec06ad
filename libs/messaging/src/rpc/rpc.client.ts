import { Injectable } from '@nestjs/common';
import {
  NoRespondersError,
  RequestError,
  TimeoutError,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type QueuedIterator,
} from '@nats-io/transport-node';
import type { MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import {
  RpcErrorReplySchema,
  decodeMessage,
  encodeMessage,
  rpcSubject,
  type RpcSpec,
} from '@engram/contracts';
import { currentLane, LANE_HEADER } from '@engram/platform';
import { NatsClient } from '../connection/nats.client';
import { injectTraceContext } from '../tracing/trace-headers';
import { DependencyUnavailableError } from '../consumers/failure-kind';
import { isRpcErrorCode, RpcError } from './rpc-error';
import { DEADLINE_HEADER, HEARTBEAT_HEADER, PRINCIPAL_HEADER, WORKING_HEADER } from './rpc.endpoint';

export interface CallOptions {
  /** Required for tenant-scoped RPCs. */
  readonly tenantId?: string;
  readonly timeoutMs?: number;
  /** Who asks, as an audit entry records it (Engram-Principal): `apikey:<id>`, `cli:<user>@<host>`. */
  readonly principal?: string;
  /**
   * For a long call: the endpoint says it is still working this often, and the call gives up as
   * UNAVAILABLE after HEARTBEATS_MISSED of them go unheard (the process that took it died or
   * stalled) instead of waiting out its whole timeout.
   */
  readonly heartbeatMs?: number;
}

/** Heartbeats a call may miss before it counts the endpoint as gone. */
export const HEARTBEATS_MISSED = 5;

/** Calls an Engram RPC; a failure comes back as an RpcError with the server's code, message and details. */
@Injectable()
export class RpcClient {
  constructor(private readonly nats: NatsClient) {}

  async call<S extends RpcSpec>(
    spec: S,
    request: MessageInitShape<S['request']>,
    options: CallOptions = {},
  ): Promise<MessageShape<S['response']>> {
    const { connection } = await this.nats.connected();
    return callRpc(connection, spec, request, options);
  }
}

/**
 * One RPC over a given NATS connection (what RpcClient does inside a service; tools and
 * benchmarks with a connection of their own call this). The deadline travels as
 * Engram-Deadline; a failure is an RpcError with the server's code, message and details,
 * UNAVAILABLE when nobody answers the subject, DEADLINE_EXCEEDED when the answer is late.
 */
export async function callRpc<S extends RpcSpec>(
  connection: NatsConnection,
  spec: S,
  request: MessageInitShape<S['request']>,
  options: CallOptions = {},
): Promise<MessageShape<S['response']>> {
  const reply = await callRpcBytes(connection, spec, encodeMessage(spec.request, request), options);
  return decodeMessage(spec.response, reply, { strict: false }) as MessageShape<S['response']>;
}

/**
 * callRpc with the request and the answer as the bytes on the wire (protobuf JSON): for the
 * api edge, which passes a caller's JSON through and the answer back without decoding either.
 */
export async function callRpcBytes(
  connection: NatsConnection,
  spec: RpcSpec,
  request: Uint8Array,
  options: CallOptions = {},
): Promise<Uint8Array> {
  const subject = rpcSubject(spec, options.tenantId);
  const timeout = options.timeoutMs ?? 10_000;
  const headers = injectTraceContext();
  headers.set(DEADLINE_HEADER, String(Date.now() + timeout));
  if (options.principal) headers.set(PRINCIPAL_HEADER, options.principal);
  if (options.heartbeatMs) headers.set(HEARTBEAT_HEADER, String(options.heartbeatMs));
  const lane = currentLane();
  if (lane) headers.set(LANE_HEADER, lane);
  let reply: Msg | null;
  try {
    reply = options.heartbeatMs
      ? await requestWhileWorking(connection, subject, request, headers, timeout, options.heartbeatMs)
      : await connection.request(subject, request, { timeout, headers });
  } catch (error) {
    if (error instanceof NoRespondersError || (error instanceof RequestError && error.isNoResponders())) {
      throw new RpcError('UNAVAILABLE', `no service answers ${subject}`, { subject });
    }
    if (
      error instanceof TimeoutError ||
      (error instanceof RequestError && error.cause instanceof TimeoutError)
    ) {
      throw new RpcError('DEADLINE_EXCEEDED', `${subject} did not answer within ${timeout} ms`, {
        subject,
      });
    }
    throw error;
  }
  if (reply === null) {
    throw new RpcError(
      'UNAVAILABLE',
      `${subject} went silent: the service that took it stopped answering (no heartbeat for ${HEARTBEATS_MISSED} × ${options.heartbeatMs} ms)`,
      { subject },
    );
  }
  if (reply.headers?.get('Nats-Service-Error-Code')) {
    const { error } = decodeMessage(RpcErrorReplySchema, reply.data, { strict: false });
    const code = error?.code ?? 'INTERNAL';
    throw new RpcError(
      isRpcErrorCode(code) ? code : 'INTERNAL',
      error?.message ?? reply.headers.get('Nats-Service-Error'),
      {
        ...(error?.details ?? {}),
      },
    );
  }
  return reply.data;
}

/**
 * The answer of a call whose endpoint says "working" every `heartbeatMs`; null when it went
 * silent for HEARTBEATS_MISSED of them (requestMany's stall strategy), a TimeoutError when no
 * answer came within `timeout` however busy it said it was.
 */
async function requestWhileWorking(
  connection: NatsConnection,
  subject: string,
  request: Uint8Array,
  headers: MsgHdrs,
  timeout: number,
  heartbeatMs: number,
): Promise<Msg | null> {
  const silence = Math.min(timeout, heartbeatMs * HEARTBEATS_MISSED);
  // The endpoint says "working" as soon as the request arrives, so silence counts from the start too.
  const replies = (await connection.requestMany(subject, request, {
    strategy: 'stall',
    stall: silence,
    maxWait: silence,
    headers,
  })) as QueuedIterator<Msg>;
  let late = false;
  const overall = setTimeout(() => {
    late = true;
    replies.stop();
  }, timeout);
  try {
    for await (const reply of replies) if (!reply.headers?.has(WORKING_HEADER)) return reply;
  } finally {
    clearTimeout(overall);
  }
  if (late) throw new TimeoutError();
  return null;
}

/** Answers that say the service behind an RPC cannot answer right now, not that the request was wrong. */
const DEPENDENCY_DOWN_CODES: ReadonlySet<string> = new Set([
  'UNAVAILABLE',
  'DEADLINE_EXCEEDED',
  'RESOURCE_EXHAUSTED',
]);

/**
 * An RPC made by a consumer's work: when the service behind it is down, busy or too slow, the
 * failure becomes a DependencyUnavailableError naming it, so the work waits and is never
 * dead-lettered for it; every other failure passes through as it is.
 */
export async function callDependency<T>(dependency: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof RpcError && DEPENDENCY_DOWN_CODES.has(error.code))
      throw new DependencyUnavailableError(`${dependency}: ${error.message}`);
    throw error;
  }
}
