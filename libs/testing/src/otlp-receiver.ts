import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CollectedSpan } from './span-tree';

/** A trace backend for tests: receives OTLP/HTTP JSON exports and keeps every span in memory. */
export interface OtlpReceiver {
  /** What a service needs to export its traces here (JSON, batched for 100 ms). */
  readonly env: Readonly<Record<string, string>>;
  readonly spans: CollectedSpan[];
  close(): Promise<void>;
}

interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value?: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<Omit<CollectedSpan, 'service'>> }>;
  }>;
}

/** Starts the receiver on a free port of 127.0.0.1 (POST /v1/traces). */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: CollectedSpan[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const exported = JSON.parse(body || '{}') as OtlpExport;
      for (const { resource, scopeSpans } of exported.resourceSpans ?? []) {
        const service =
          resource?.attributes?.find((a) => a.key === 'service.name')?.value?.stringValue ?? '?';
        for (const scope of scopeSpans ?? [])
          for (const s of scope.spans ?? [])
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              ...(s.parentSpanId && { parentSpanId: s.parentSpanId }),
              name: s.name,
              service,
              startTimeUnixNano: String(s.startTimeUnixNano),
            });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${port}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
    spans,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}
