import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, NoopSpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

let sdk: NodeSDK | undefined;

/**
 * Starts tracing for a service. Must run before `pg` and `http` are first
 * required, which is why every service's main.ts imports its telemetry file first.
 *
 * Spans are always recorded (trace ids appear in logs and travel in NATS headers);
 * they are exported only when OTEL_EXPORTER_OTLP_ENDPOINT is set, so the default
 * configuration needs no network.
 */
export function startTelemetry(serviceName: string, version = '0.1.0'): void {
  if (sdk) return;
  // Metrics are served by each service's /metrics (Prometheus); OTel logs are not used.
  process.env['OTEL_METRICS_EXPORTER'] ??= 'none';
  process.env['OTEL_LOGS_EXPORTER'] ??= 'none';
  const exporting = Boolean(
    process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] || process.env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'],
  );
  sdk = new NodeSDK({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: `engram-${serviceName}`,
      [ATTR_SERVICE_VERSION]: version,
    }),
    spanProcessors: [
      exporting ? new BatchSpanProcessor({ exporter: new OTLPTraceExporter() }) : new NoopSpanProcessor(),
    ],
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes every few seconds would drown the real traces.
        ignoreIncomingRequestHook: (request) => /^\/(health|metrics)/.test(request.url ?? ''),
      }),
      new PgInstrumentation({ requireParentSpan: true }),
      // fetch and undici (the Gerty client over HTTP, remote model calls): a client span each,
      // and traceparent on the request. Only inside a trace: a bare call starts none.
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
  });
  sdk.start();
}

export async function stopTelemetry(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}
