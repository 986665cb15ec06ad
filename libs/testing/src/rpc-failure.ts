import type { RpcSpec } from '@engram/contracts';
import { RpcError, type RpcClient } from '@engram/messaging';

/** The RpcError a request is answered with; fails the test when it is answered, or fails otherwise. */
export async function rpcFailure<S extends RpcSpec>(
  rpc: RpcClient,
  spec: S,
  request: Parameters<RpcClient['call']>[1],
  tenantId = 'acme',
): Promise<RpcError> {
  try {
    await rpc.call(spec, request as never, { tenantId });
  } catch (error) {
    if (error instanceof RpcError) return error;
    throw error;
  }
  throw new Error(`expected ${spec.subject} to fail`);
}
