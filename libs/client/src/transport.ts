import type { RpcSpec } from '@engram/contracts';

/** What JetStream (or the HTTP edge) answered for a published turn. */
export interface PublishedTurn {
  /** The stream that holds it (`TURNS`). */
  readonly stream: string;
  /** Its sequence in the stream. */
  readonly seq: number;
  /** True when a turn with the same idempotency key was already there: nothing was added. */
  readonly duplicate: boolean;
}

/**
 * How a client reaches Engram. Both wires carry the same bytes — a request's protobuf JSON
 * in, the response's out — so the client encodes and decodes once for both. Every failure
 * is an EngramError of the code Engram answered; a transport never retries (the client
 * does, for UNAVAILABLE only).
 */
export interface Transport {
  /** Where Engram is looked for (NATS servers or the HTTP base URL), for error messages. */
  readonly where: string;
  /** The tenant of every call (NATS); undefined over HTTP, where the API key decides it. */
  readonly tenant: string | undefined;
  /** One RPC: the request's protobuf JSON in, the response's out. */
  call(spec: RpcSpec, body: Uint8Array, timeoutMs: number): Promise<Uint8Array>;
  /** Publishes an agent's turn (its TurnEvent JSON) once per idempotency key (within the stream's duplicate window). */
  publishTurn(
    turn: { readonly agent: string; readonly sessionKey: string },
    body: Uint8Array,
    idempotencyKey: string,
    timeoutMs: number,
  ): Promise<PublishedTurn>;
  /** Releases what the transport holds (a NATS connection it opened). */
  close(): Promise<void>;
}
