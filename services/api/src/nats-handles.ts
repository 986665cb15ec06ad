import { NatsClient, RpcError, type NatsHandles } from '@engram/messaging';

/** The api's NATS handles; a connection that cannot be made is UNAVAILABLE (503), for the caller to retry. */
export async function natsHandles(nats: NatsClient): Promise<NatsHandles> {
  try {
    return await nats.connected();
  } catch {
    throw new RpcError('UNAVAILABLE', 'NATS is not reachable from the api; retry shortly');
  }
}
