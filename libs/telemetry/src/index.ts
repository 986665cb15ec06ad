export * from './start-telemetry';
export {
  context,
  propagation,
  trace,
  SpanKind,
  SpanStatusCode,
  ROOT_CONTEXT,
  type Context,
  type Span,
} from '@opentelemetry/api';
