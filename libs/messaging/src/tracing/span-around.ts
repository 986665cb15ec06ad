import { SpanStatusCode, type Span } from '@engram/telemetry';
import { errorMessage } from '../consumers/error-message';

/** `work`'s result; a thrown error is recorded on the span (exception, ERROR status) and thrown on. The span always ends. */
export async function spanAround<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
    throw error;
  } finally {
    span.end();
  }
}
