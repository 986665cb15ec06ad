import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { context, propagation, ROOT_CONTEXT, type Context } from '@engram/telemetry';

/** W3C trace context (traceparent, tracestate) travels in NATS message headers. */
export function injectTraceContext(target: MsgHdrs = natsHeaders(), from: Context = context.active()): MsgHdrs {
  propagation.inject(from, target, {
    set: (carrier, key, value) => carrier.set(key, value),
  });
  return target;
}

export function extractTraceContext(source: MsgHdrs | undefined): Context {
  if (!source) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, source, {
    keys: (carrier) => carrier.keys(),
    get: (carrier, key) => carrier.get(key) || undefined,
  });
}
