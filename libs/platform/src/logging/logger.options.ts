import { trace } from '@opentelemetry/api';
import type { Params } from 'nestjs-pino';
import { stdTimeFunctions } from 'pino';

/** Structured JSON logs on stdout, one object per line, with the active trace's ids. */
export function loggerOptions(service: string, level: string): Params {
  return {
    pinoHttp: {
      level,
      base: { service, pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      messageKey: 'message',
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const span = trace.getActiveSpan()?.spanContext();
        return span ? { trace_id: span.traceId, span_id: span.spanId } : {};
      },
      autoLogging: { ignore: (req) => /^\/(health|metrics)/.test(req.url ?? '') },
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.apiKey', '*.api_key'],
    },
  };
}
