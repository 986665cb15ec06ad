import type { MsgHdrs } from '@nats-io/transport-node';
import type { Context } from '@engram/telemetry';
import { errorMessage } from './error-message';
import { isDependencyFailure } from './failure-kind';

export type Verdict =
  | { readonly kind: 'reject'; readonly reason: string; readonly details?: Record<string, unknown> }
  | { readonly kind: 'retry'; readonly reason: string; readonly dependencyDown: boolean };

/**
 * One decoded JetStream message handed to a handler. The transport settles it
 * after the handler returned: acknowledged, unless the handler rejected it (it
 * goes to the dead-letter subject now) or asked for a retry (it is redelivered
 * later, and dead-lettered once its deliveries are exhausted). A handler that
 * throws asks for a retry of every delivery it did not settle itself.
 */
export class Delivery<T> {
  private decided?: Verdict;
  private finished?: Promise<void>;

  constructor(
    readonly message: T,
    readonly subject: string,
    readonly streamSequence: number,
    readonly deliveryCount: number,
    /** When JetStream stored the message. */
    readonly receivedAt: Date,
    readonly headers: MsgHdrs | undefined,
    /**
     * The trace this message continues: its publisher's, and once a span consumes it
     * alone, that span's (so what the handler announces is that span's child).
     */
    public traceContext: Context,
    /** Settles the message with this verdict now (the transport's; none in unit specs). */
    private readonly settleNow?: (verdict: Verdict | undefined) => Promise<void>,
  ) {}

  /**
   * Settles it now, as the transport would once the handler returned: acknowledged, or as
   * rejected or retried. For a batch whose parts finish at different times, so each part's
   * messages leave at once and the consumer's ack floor keeps moving. Later calls do nothing.
   */
  finish(): Promise<void> {
    this.finished ??= this.settleNow?.(this.decided) ?? Promise.resolve();
    return this.finished;
  }

  /** Whether finish() settled it already (the transport settles the rest). */
  get isFinished(): boolean {
    return this.finished !== undefined;
  }

  /** It can never succeed (invalid content): dead-letter it with this reason, do not retry. */
  reject(reason: string, details?: Record<string, unknown>): void {
    this.decided = details ? { kind: 'reject', reason, details } : { kind: 'reject', reason };
  }

  /**
   * It failed for now: deliver it again later. `dependencyDown` (a database or
   * gateway unreachable) pauses the consumer and never dead-letters the message.
   */
  retry(reason: string, options: { dependencyDown?: boolean } = {}): void {
    this.decided = { kind: 'retry', reason, dependencyDown: options.dependencyDown ?? false };
  }

  /** It failed with this error: deliver it again later (paused, not counted, when a dependency is down). */
  retryAfter(error: unknown): void {
    this.retry(errorMessage(error), { dependencyDown: isDependencyFailure(error) });
  }

  get verdict(): Verdict | undefined {
    return this.decided;
  }
}

/** Thrown by a single-message handler for a message that can never succeed. */
export class InvalidEventError extends Error {
  override readonly name = 'InvalidEventError';
  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}
