import { Inject, Injectable } from '@nestjs/common';
import type { RpcSpec } from '@engram/contracts';
import { callRpcBytes, NatsClient } from '@engram/messaging';
import type { ApiPrincipal } from '@engram/store';
import { natsHandles } from '../nats-handles';
import { API_CONFIG, type ApiConfig } from '../api.config';

/**
 * Passes a caller's JSON to an RPC and its answer back, as bytes: the service decodes and checks
 * the request (one request check, there), and the edge never re-encodes what it only relays.
 */
@Injectable()
export class RpcForwarder {
  constructor(
    private readonly nats: NatsClient,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
  ) {}

  /** Calls `spec` for the key's tenant; the key is who asks (an erase's audit entry names it). */
  async forward(spec: RpcSpec, body: unknown, principal: ApiPrincipal): Promise<Buffer> {
    const { connection } = await natsHandles(this.nats);
    const request = Buffer.from(JSON.stringify(body ?? {}));
    const reply = await callRpcBytes(connection, spec, request, {
      tenantId: principal.tenantId,
      timeoutMs: this.config.API_RPC_TIMEOUT_MS,
      principal: `apikey:${principal.keyId}`,
    });
    return Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  }
}
