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

/** The W3C trace context of `from` as plain values (what the outbox keeps beside an event). */
export function traceFieldsOf(from: Context = context.active()): {
  traceparent?: string;
  tracestate?: string;
} {
  const carrier: Record<string, string> = {};
  w3c.inject(from, carrier, { set: (c, key, value) => (c[key] = value) });
  return {
    ...(carrier.traceparent && { traceparent: carrier.traceparent }),
    ...(carrier.tracestate && { tracestate: carrier.tracestate }),
  };
}

/** NATS headers carrying kept trace fields (none when there are none). */
export function headersOfTraceFields(fields: {
  traceparent?: string;
  tracestate?: string;
}): MsgHdrs | undefined {
  if (!fields.traceparent) return undefined;
  const h = natsHeaders();
  h.set('traceparent', fields.traceparent);
  if (fields.tracestate) h.set('tracestate', fields.tracestate);
  return h;
}
