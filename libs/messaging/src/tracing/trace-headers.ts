import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { context, ROOT_CONTEXT, type Context } from '@engram/telemetry';

/** NATS headers carry W3C trace context (traceparent, tracestate), whatever the process's global propagator is. */
const w3c = new W3CTraceContextPropagator();

export function injectTraceContext(
  target: MsgHdrs = natsHeaders(),
  from: Context = context.active(),
): MsgHdrs {
  w3c.inject(from, target, { set: (carrier, key, value) => carrier.set(key, value) });
  return target;
}

export function extractTraceContext(source: MsgHdrs | undefined): Context {
  if (!source) return ROOT_CONTEXT;
  return w3c.extract(ROOT_CONTEXT, source, {
    keys: (carrier) => carrier.keys(),
    get: (carrier, key) => carrier.get(key) || undefined,
  });
}
