import type { MessageInitShape, MessageShape, RpcSpec } from '@engram/contracts';
import { RpcError } from '@engram/messaging';

/** What a tool's RPC is sent with: the tenant (decided by the server, never by a tool argument) and a deadline. */
export interface MemoryRpcOptions {
  readonly tenantId: string;
  readonly timeoutMs?: number;
}

/**
 * How the server reaches Engram's RPCs: the transport is injected (the CLI passes NATS
 * `callRpc` over its connection, the api edge its RpcClient), so the tools never know
 * which. A failure is an RpcError with the service's code, message and details.
 */
export type MemoryRpcCall = <S extends RpcSpec>(
  spec: S,
  request: MessageInitShape<S['request']>,
  options: MemoryRpcOptions,
) => Promise<MessageShape<S['response']>>;

/** Whose memory a server serves: one tenant and one agent, fixed when it is created. */
export interface MemoryMcpOptions {
  readonly call: MemoryRpcCall;
  readonly tenant: string;
  readonly agent: string;
}

/** What a tool runs with: the server's tenant and agent, and the RPCs bound to that tenant. */
export interface ToolScope {
  readonly tenant: string;
  readonly agent: string;
  call<S extends RpcSpec>(
    spec: S,
    request: MessageInitShape<S['request']>,
    timeoutMs?: number,
  ): Promise<MessageShape<S['response']>>;
}

/** The RPCs bound to the server's tenant; a failure names what failed (details.service: the RPC's owner unless the transport said). */
export function toolScope({ call, tenant, agent }: MemoryMcpOptions): ToolScope {
  return {
    tenant,
    agent,
    async call(spec, request, timeoutMs) {
      try {
        return await call(spec, request, { tenantId: tenant, ...(timeoutMs && { timeoutMs }) });
      } catch (error) {
        if (!(error instanceof RpcError)) throw error;
        throw new RpcError(error.code, error.message, { service: `${spec.owner} service`, ...error.details });
      }
    },
  };
}
